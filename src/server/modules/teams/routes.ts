import { Hono } from 'hono'
import { changeRoleInput, createTeamInput, inviteInput, updateTeamInput } from '../../../domain/teams.ts'
import type { Db } from '../../db/client.ts'
import type { AppEnv, UserEnv } from '../../http/env.ts'
import { jsonBody } from '../../http/input.ts'
import { requireUser } from '../../http/session.ts'
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
 * `/teams`: signed-in users only. Every service function checks the caller's permission in the
 * team with the §6 table (policy.ts), so a route cannot forget it.
 */
export function teamRoutes(deps: InvitationDeps) {
  const { db } = deps
  return new Hono<UserEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json({ items: await listMyTeams(db, c.get('user').id) }))
    .post('/', async (c) => {
      const input = await jsonBody(c, createTeamInput)
      return c.json({ team: await createTeam(db, c.get('user'), input) }, 201)
    })
    .get('/:teamId', async (c) => c.json({ team: await getTeam(db, c.get('user'), c.req.param('teamId')) }))
    .patch('/:teamId', async (c) => {
      const input = await jsonBody(c, updateTeamInput)
      return c.json({ team: await renameTeam(db, c.get('user'), c.req.param('teamId'), input) })
    })
    .get('/:teamId/members', async (c) =>
      c.json({ items: await listMembers(db, c.get('user'), c.req.param('teamId')) }),
    )
    .patch('/:teamId/members/:userId', async (c) => {
      const { role } = await jsonBody(c, changeRoleInput)
      const { teamId, userId } = c.req.param()
      return c.json({ items: await changeMemberRole(db, c.get('user'), teamId, userId, role) })
    })
    .delete('/:teamId/members/:userId', async (c) => {
      const { teamId, userId } = c.req.param()
      await removeMember(db, c.get('user'), teamId, userId)
      return c.body(null, 204)
    })
    .post('/:teamId/leave', async (c) => {
      await leaveTeam(db, c.get('user'), c.req.param('teamId'))
      return c.body(null, 204)
    })
    .get('/:teamId/invitations', async (c) =>
      c.json({ items: await listInvitations(db, c.get('user'), c.req.param('teamId')) }),
    )
    .post('/:teamId/invitations', async (c) => {
      const input = await jsonBody(c, inviteInput)
      const invitation = await inviteMember(
        deps,
        c.get('user'),
        c.req.param('teamId'),
        input,
        c.get('locale'),
      )
      return c.json({ invitation }, 201)
    })
    .post('/:teamId/invitations/:invitationId/resend', async (c) => {
      const { teamId, invitationId } = c.req.param()
      const invitation = await resendInvitation(deps, c.get('user'), teamId, invitationId, c.get('locale'))
      return c.json({ invitation })
    })
    .delete('/:teamId/invitations/:invitationId', async (c) => {
      const { teamId, invitationId } = c.req.param()
      return c.json({ invitation: await revokeInvitation(db, c.get('user'), teamId, invitationId) })
    })
}

/**
 * `/invitations/:token`: anyone holding the link may look at the invitation (the accept page shows
 * it to signed-out visitors); accepting needs the invited account.
 */
export function invitationRoutes(deps: { db: Db }) {
  const { db } = deps
  const accept = new Hono<UserEnv>().use(requireUser).post('/', async (c) => {
    const token = c.req.param('token') ?? ''
    return c.json({ accepted: await acceptInvitation(db, c.get('user'), token) })
  })
  return new Hono<AppEnv>()
    .get('/:token', async (c) => c.json({ invitation: await previewInvitation(db, c.req.param('token')) }))
    .route('/:token/accept', accept)
}
