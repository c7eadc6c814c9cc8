import type { teamOperations } from '../../../domain/api/teams.ts'
import type { Locale } from '../../../domain/messages/index.ts'
import type { Handlers } from '../../http/operations.ts'
import {
  acceptInvitation,
  type InvitationDeps,
  inviteMember,
  listInvitations,
  previewInvitation,
  resendInvitation,
  revokeInvitation,
} from './invitations.ts'
import {
  changeMemberRole,
  createTeam,
  getTeam,
  leaveTeam,
  listMembers,
  listMyTeams,
  removeMember,
  renameTeam,
} from './service.ts'

/**
 * Teams, members and invitations. Every service function checks the caller's permission in the
 * team with the permission table (policy.ts) inside its own transaction.
 */
export function teamHandlers(deps: InvitationDeps): Handlers<typeof teamOperations> {
  const { db } = deps
  const all = <T>(items: T[]) => ({ items, nextCursor: null })
  const noticeFor = (actor: { locale: Locale }) => ({ appUrl: deps.appUrl, locale: actor.locale })
  return {
    list: async ({ actor }) => all(await listMyTeams(db, actor)),
    create: ({ actor, body }) => createTeam(db, actor, body),
    get: ({ actor, params }) => getTeam(db, actor, params.teamId),
    rename: ({ actor, params, body }) => renameTeam(db, actor, params.teamId, body),
    members: async ({ actor, params }) => all(await listMembers(db, actor, params.teamId)),
    changeRole: ({ actor, params, body }) =>
      changeMemberRole(db, actor, params.teamId, params.userId, body.role, noticeFor(actor)),
    removeMember: ({ actor, params }) =>
      removeMember(db, actor, params.teamId, params.userId, noticeFor(actor)),
    leave: ({ actor, params }) => leaveTeam(db, actor, params.teamId, noticeFor(actor)),
    invitations: async ({ actor, params }) => all(await listInvitations(db, actor, params.teamId)),
    invite: ({ actor, params, body }) => inviteMember(deps, actor, params.teamId, body, actor.locale),
    resendInvitation: ({ actor, params }) =>
      resendInvitation(deps, actor, params.teamId, params.invitationId, actor.locale),
    revokeInvitation: async ({ actor, params }) => {
      await revokeInvitation(db, actor, params.teamId, params.invitationId)
    },
    previewInvitation: ({ params }) => previewInvitation(db, params.token),
    acceptInvitation: ({ actor, params }) => acceptInvitation(db, deps.plans, actor, params.token),
  }
}
