import type { ConversationAccess } from './conversations.ts'
import { type Actor, canInTeam, type TeamRole } from './team-permissions.ts'

/**
 * Who may do what with a conversation (§6, issue 5), read by the server for every request and by
 * the web app to hide actions. Ownership compares user ids with user ids (the spec's defect
 * compared an id with the role value).
 *
 * - view and append messages: the owner, members of its team, global admins;
 * - manage (title, tags, delete): the owner, admins of its team, global admins;
 * - moderate others' messages: admins of its team and global admins only (§6: the owner edits or
 *   deletes their own messages, like every author);
 * - everyone else does not see it at all (404).
 */
export interface ConversationActor extends Actor {
  id: string
}

export interface ConversationRef {
  ownerUserId: string
  teamId: string | null
}

/** `teamRole`: the actor's role in the conversation's team (null: not a member, or no team). */
export function conversationAccess(
  actor: ConversationActor,
  conversation: ConversationRef,
  teamRole: TeamRole | null,
): ConversationAccess & { canView: boolean } {
  const isOwner = conversation.ownerUserId === actor.id
  const role = conversation.teamId === null ? null : teamRole
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
