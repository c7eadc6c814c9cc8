import type { Actor } from './auth.ts'
import type { ConversationAccess } from './conversations.ts'
import { LATEST_LABEL } from './prompt-names.ts'
import type { PromptAccess } from './prompts.ts'

/**
 * Who may do what, in one place: the server checks these before every change and puts their answer
 * on every item it returns (`access`), which the web app reads to show or hide actions instead of
 * working the rules out again. Ids are compared with ids (the spec's defect compared an id with the
 * role value). A global admin holds every team permission in every team.
 */

/**
 * Teams: admins manage the team, invite, change roles and remove members; members see the team,
 * its members and invitations.
 */
export const teamRoles = ['admin', 'member'] as const
export type TeamRole = (typeof teamRoles)[number]

export const teamPermissions = {
  manage_team_roles: ['admin'],
  invite_members: ['admin'],
  remove_members: ['admin'],
  manage_team: ['admin'],
  view_team_data: ['admin', 'member'],
} as const satisfies Record<string, readonly TeamRole[]>

export type TeamPermission = keyof typeof teamPermissions

/**
 * May `actor`, whose role in the team is `role` (null: not a member), do `permission` there? A
 * request an API key made reaches no team through the app's API, whoever's key it is: a personal
 * key reaches its personal space only (decision 0242), and a team's key speaks at the Langfuse door.
 */
export function canInTeam(
  actor: Pick<Actor, 'globalRole'> & Partial<Pick<Actor, 'apiKeyId'>>,
  role: TeamRole | null,
  permission: TeamPermission,
): boolean {
  if (actor.apiKeyId) return false
  if (actor.globalRole === 'global_admin') return true
  return role !== null && (teamPermissions[permission] as readonly TeamRole[]).includes(role)
}

/**
 * Whether a delete would take one of the team's protected labels. Absent: the prompt holds none (a
 * personal prompt, or a check made later, in the delete's own transaction).
 */
export interface ProtectedLabelsHeld {
  holdsProtectedLabel: boolean
}

/**
 * Prompts: whoever sees a prompt (its owner; members of its team when it is team-visible) reads
 * and copies it; only the owner edits it, deletes it and sets its current version. Ids are
 * compared with ids (the spec's defect compared an id with the role value).
 *
 * The owner of a team prompt holds those rights only while a member of its team (decision 0242,
 * the rule decision 0008 gave conversations): a removed or departed member, a deleted account, or
 * the creator of a team key who has left keeps nothing of the team's. Their team prompts stay with
 * the team, and its admins edit, delete and set their current version instead.
 *
 * Deleting takes the prompt's labels with it, so while one of them is protected in its team the
 * prompt is deleted only by a team admin (or global admin), and never with an API key.
 */
export interface PromptRightsRef {
  ownerUserId: string
  visibility: 'private' | 'team'
  /** Whether the owner is a member of the prompt's team (meaningless for a private prompt). */
  ownerIsMember: boolean
  /** The caller's role in the prompt's team (null: not a member, or a private prompt). */
  viewerTeamRole: TeamRole | null
}

export function promptAccess(
  actor: Pick<Actor, 'id' | 'globalRole'> & Partial<Pick<Actor, 'apiKeyId'>>,
  prompt: PromptRightsRef,
  held?: ProtectedLabelsHeld,
): PromptAccess {
  const shared = prompt.visibility === 'team'
  const role = shared ? prompt.viewerTeamRole : null
  const isOwner = prompt.ownerUserId === actor.id && (!shared || role !== null)
  const managesForTeam =
    shared && role !== null && !prompt.ownerIsMember && canInTeam(actor, role, 'manage_team')
  const may = isOwner || managesForTeam
  const takesProtected =
    held?.holdsProtectedLabel === true &&
    !mayMoveProtectedLabels(
      actor.apiKeyId
        ? { kind: 'apiKey' }
        : { kind: 'user', isTeamAdmin: role === 'admin' || actor.globalRole === 'global_admin' },
    )
  return { edit: may, delete: may && !takesProtected, setCurrent: may }
}

/** Who moves a label: a person in the app (a team admin or not), or an API key. */
export type LabelMoverKind = { kind: 'user'; isTeamAdmin: boolean } | { kind: 'apiKey' }

/**
 * Who moves a team's protected labels: its admins in the app. API keys never do, whoever's key it
 * is (Langfuse lets keys bypass protection; we do not). Deleting a version that holds one moves it
 * off, so the same rule decides who may delete it.
 */
export function mayMoveProtectedLabels(mover: LabelMoverKind): boolean {
  return mover.kind === 'user' && mover.isTeamAdmin
}

/** May this label be moved by this caller? ('latest' never: the server keeps it.) */
export function mayMoveLabel(
  label: string,
  protectedLabels: readonly string[],
  mover: LabelMoverKind,
): boolean {
  if (label === LATEST_LABEL) return false
  if (!protectedLabels.includes(label)) return true
  return mayMoveProtectedLabels(mover)
}

/** Only the owner moves a prompt between spaces: a team admin who manages it keeps it in the team. */
export function mayChangeSharing(actor: Pick<Actor, 'id'>, prompt: { ownerUserId: string }): boolean {
  return prompt.ownerUserId === actor.id
}

/**
 * Who may do what with a conversation, read by the server for every request and by
 * the web app to hide actions. Ownership compares user ids with user ids (the spec's defect
 * compared an id with the role value).
 *
 * - view and append messages: the owner, members of its team, global admins;
 * - manage (title, tags, delete): the owner, admins of its team, global admins;
 * - moderate others' messages: admins of its team and global admins only (the owner edits or
 *   deletes their own messages, like every author);
 * - everyone else does not see it at all (404).
 *
 * The owner of a team conversation holds those rights only while a member of its team (decision
 * 0008): a removed or departed member keeps nothing of the team's, and its admins manage it.
 */
export interface ConversationRef {
  ownerUserId: string
  teamId: string | null
}

/** `teamRole`: the actor's role in the conversation's team (null: not a member, or no team). */
export function conversationAccess(
  actor: Pick<Actor, 'id' | 'globalRole'>,
  conversation: ConversationRef,
  teamRole: TeamRole | null,
): ConversationAccess & { canView: boolean } {
  const role = conversation.teamId === null ? null : teamRole
  const isOwner = conversation.ownerUserId === actor.id && (conversation.teamId === null || role !== null)
  const isModerator = canInTeam(actor, role, 'manage_team')
  return {
    canView: isOwner || canInTeam(actor, role, 'view_team_data'),
    canManage: isOwner || isModerator,
    canModerate: isModerator,
  }
}

/** Authors edit and delete their own messages; moderators everyone's. Attachments follow the message. */
export function canChangeMessage(
  access: ConversationAccess,
  actorId: string,
  message: { createdByUserId: string | null },
): boolean {
  return access.canModerate || (message.createdByUserId !== null && message.createdByUserId === actorId)
}

/**
 * The rules an operation's declaration names (`permission`), each checked by its service with the
 * functions above, and said once in words for the API documents.
 */
export const permissionRules = {
  'team.view_team_data': 'members of the team (a global admin in any team)',
  'team.invite_members': 'the team’s admins',
  'team.manage_team_roles': 'the team’s admins',
  'team.remove_members': 'the team’s admins',
  'team.manage_team': 'the team’s admins',
  'space.manage': 'a personal space: its owner; a team’s: the team’s admins',
  'space.use': 'a personal space: its owner; a team’s: its members',
  'prompt.view': 'whoever sees the prompt: its owner; members of its team when it is shared',
  'prompt.edit': 'the owner while in the prompt’s team; its admins for a former member’s prompt',
  'prompt.setCurrent': 'as prompt.edit',
  'prompt.delete':
    'as prompt.edit; a prompt holding a protected label only by a team admin in the app, never with a key',
  'prompt.moveLabels':
    'as prompt.edit, or a read-and-write key of the prompt’s space; a protected label only by a team admin in the app',
  'conversation.view': 'its owner, members of its team, global admins',
  'conversation.manage': 'its owner, admins of its team, global admins',
  'message.change': 'its author; admins of the conversation’s team and global admins',
  'admin.viewAllTeams': 'global admins',
  'admin.manageGlobalRoles': 'global admins, never the last one or the ADMIN_EMAIL account',
} as const satisfies Record<`team.${TeamPermission}` | (string & {}), string>

export type Permission = keyof typeof permissionRules
