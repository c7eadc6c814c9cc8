import { type SQL, sql } from 'drizzle-orm'
import { INVITATION_VALID_DAYS } from '../../../domain/constants.ts'
import { AppError } from '../../../domain/errors.ts'
import { isUuid } from '../../../domain/ids.ts'
import type { Locale } from '../../../domain/messages/index.ts'
import type { TeamRole } from '../../../domain/permissions.ts'
import type {
  AcceptedInvitation,
  InvitationPreview,
  InvitationStatus,
  TeamInvitation,
} from '../../../domain/teams.ts'
import { invitationTokenSchema } from '../../../domain/teams.ts'
import type { Db, Tx } from '../../db/client.ts'
import { isoTimestamp, queryRows, type SqlTimestamp } from '../../db/rows.ts'
import { consumeRateLimit } from '../../rate-limit.ts'
import type { PlanGate } from '../plans/gate.ts'
import { queueInvitationMail } from './invitation-mail.ts'
import { hashInvitationToken, newInvitationToken } from './invitation-token.ts'
import { type Actor, authorizeTeam } from './policy.ts'

export interface InvitationDeps {
  db: Db
  /** The public origin for links in mails (APP_URL). */
  appUrl: string
  rateLimitMultiplier: number
  /** The plan gate: a team's members plus pending invitations stay within its plan. */
  plans: PlanGate
}

/** Invitations (and resends) an admin may send per hour: each one is a mail to a stranger. */
const INVITES_PER_HOUR = 50
/** Invitations one address may receive per day, from all teams together: nobody is mail-bombed. */
const INVITES_PER_RECIPIENT_PER_DAY = 5

interface InvitationRow extends Record<string, unknown> {
  id: string
  team_id: string
  email: string
  role: TeamRole
  status: InvitationStatus
  invited_by_email: string | null
  expires_at: SqlTimestamp
  sent_at: SqlTimestamp
  created_at: SqlTimestamp
}

/** A pending invitation past its expiry reads as expired (§4), before anyone tries to accept it. */
const invitationColumns = sql`i.id, i.team_id, i.email, i.role,
  CASE WHEN i.status = 'pending' AND i.expires_at <= now() THEN 'expired' ELSE i.status END AS status,
  inviter.email AS invited_by_email, i.expires_at, i.sent_at, i.created_at`

function toInvitation(row: InvitationRow): TeamInvitation {
  return {
    id: row.id,
    teamId: row.team_id,
    email: row.email,
    role: row.role,
    status: row.status,
    invitedByEmail: row.invited_by_email,
    expiresAt: isoTimestamp(row.expires_at),
    sentAt: isoTimestamp(row.sent_at),
    createdAt: isoTimestamp(row.created_at),
  }
}

async function selectInvitations(db: Db | Tx, where: SQL): Promise<TeamInvitation[]> {
  const rows = await queryRows<InvitationRow>(
    db,
    sql`SELECT ${invitationColumns} FROM invitations i
        LEFT JOIN users inviter ON inviter.id = i.invited_by_user_id
        WHERE ${where}`,
  )
  return rows.map(toInvitation)
}

/**
 * The team's open invitations (pending or expired), the latest one per email, newest first.
 * Members may list them (§6); accepted ones show up as members, revoked ones disappear.
 */
export async function listInvitations(db: Db, actor: Actor, teamId: string): Promise<TeamInvitation[]> {
  await authorizeTeam(db, actor, teamId, 'view_team_data')
  const rows = await queryRows<InvitationRow>(
    db,
    sql`SELECT * FROM (
          SELECT DISTINCT ON (i.email) ${invitationColumns}
          FROM invitations i LEFT JOIN users inviter ON inviter.id = i.invited_by_user_id
          WHERE i.team_id = ${teamId}
          ORDER BY i.email, i.sent_at DESC, i.id
        ) latest
        WHERE status IN ('pending', 'expired')
        ORDER BY sent_at DESC, id
        LIMIT 200`,
  )
  return rows.map(toInvitation)
}

async function enforceInviteRate(deps: InvitationDeps, actor: Actor) {
  const result = await consumeRateLimit(deps.db, `team-invite:user:${actor.id}`, {
    window: 60 * 60,
    max: INVITES_PER_HOUR * deps.rateLimitMultiplier,
  })
  if (!result.allowed) {
    const retryAfter = result.retryAfter ?? 60
    throw new AppError('rate_limited', 'teams.tooManyInvitations', {
      retryAfter,
      params: { seconds: retryAfter },
    })
  }
}

/** Counted in the invitation's transaction: an invitation refused for another reason does not count. */
async function enforceRecipientRate(tx: Tx, deps: InvitationDeps, email: string) {
  const result = await consumeRateLimit(tx, `team-invite:recipient:${email}`, {
    window: 24 * 60 * 60,
    max: INVITES_PER_RECIPIENT_PER_DAY * deps.rateLimitMultiplier,
  })
  if (!result.allowed) {
    throw new AppError('rate_limited', 'teams.recipientInvitedTooOften', {
      retryAfter: result.retryAfter ?? 60,
    })
  }
}

async function assertNotMember(tx: Tx, teamId: string, email: string) {
  const [member] = await queryRows(
    tx,
    sql`SELECT 1 FROM team_members m JOIN users u ON u.id = m.user_id
        WHERE m.team_id = ${teamId} AND u.email = ${email}`,
  )
  if (member) throw new AppError('conflict', 'teams.alreadyMember')
}

/**
 * The plan's max team members (§3), counting members and pending invitations; `invitationId` is the
 * one being sent again or accepted (it becomes the one added, so it is not counted twice). Called
 * after the team's row lock, inside the write's transaction; refuses with 403 plan_limit.
 */
async function assertRoomForMember(tx: Tx, plans: PlanGate, teamId: string, invitationId?: string) {
  await plans.require(tx, { context: 'team', teamId }, 'addMember', { excludingInvitationId: invitationId })
}

const validFor = sql`now() + make_interval(days => ${INVITATION_VALID_DAYS})`

/**
 * Sends an invitation's mail — a new invitation or one sent again — with a new token. Strangers are
 * refused before their attempts count against the inviter's rate limit. Then, in one transaction
 * with the team locked, `write` checks and stores the invitation with the new token's hash and
 * answers it, the recipient's limit is counted (a refusal there leaves no invitation behind);
 * its mail, with the token, is queued in that same transaction.
 */
async function sendInvitation(
  deps: InvitationDeps,
  actor: Actor,
  teamId: string,
  inviterLocale: Locale,
  write: (tx: Tx, tokenHash: string) => Promise<{ id: string; email: string; role: TeamRole }>,
): Promise<TeamInvitation> {
  await authorizeTeam(deps.db, actor, teamId, 'invite_members')
  await enforceInviteRate(deps, actor)
  return deps.db.transaction(async (tx) => {
    const access = await authorizeTeam(tx, actor, teamId, 'invite_members', { lock: true })
    const { token, hash } = newInvitationToken()
    const written = await write(tx, hash)
    await enforceRecipientRate(tx, deps, written.email)
    await queueInvitationMail(tx, deps.appUrl, {
      to: written.email,
      teamName: access.team.name,
      inviterEmail: actor.email,
      role: written.role,
      token,
      requestLocale: inviterLocale,
    })
    const [invitation] = await selectInvitations(tx, sql`i.id = ${written.id}`)
    return invitation!
  })
}

/**
 * Team admins (and global admins) invite by email (§5): not someone already in the team, not twice
 * while an invitation is pending. The invitation and its mail are one transaction.
 */
export async function inviteMember(
  deps: InvitationDeps,
  actor: Actor,
  teamId: string,
  input: { email: string; role: TeamRole },
  inviterLocale: Locale,
): Promise<TeamInvitation> {
  return sendInvitation(deps, actor, teamId, inviterLocale, async (tx, tokenHash) => {
    await assertNotMember(tx, teamId, input.email)
    const [open] = await selectInvitations(
      tx,
      sql`i.team_id = ${teamId} AND i.email = ${input.email} AND i.status = 'pending'`,
    )
    if (open?.status === 'pending') throw new AppError('conflict', 'teams.alreadyInvited')
    if (open) await tx.execute(sql`UPDATE invitations SET status = 'expired' WHERE id = ${open.id}`)
    await assertRoomForMember(tx, deps.plans, teamId)
    const [created] = await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO invitations (team_id, email, invited_by_user_id, role, token_hash, expires_at)
          VALUES (${teamId}, ${input.email}, ${actor.id}, ${input.role}, ${tokenHash}, ${validFor})
          RETURNING id`,
    )
    return { id: created!.id, ...input }
  })
}

async function lockedInvitation(tx: Tx, teamId: string, invitationId: string): Promise<TeamInvitation> {
  if (!isUuid(invitationId)) throw new AppError('not_found', 'teams.invitationInvalid')
  await tx.execute(sql`SELECT id FROM invitations WHERE id = ${invitationId} FOR UPDATE`)
  const [invitation] = await selectInvitations(tx, sql`i.id = ${invitationId} AND i.team_id = ${teamId}`)
  if (!invitation) throw new AppError('not_found', 'teams.invitationInvalid')
  if (invitation.status !== 'pending' && invitation.status !== 'expired') {
    throw new AppError('conflict', 'teams.invitationNotPending')
  }
  return invitation
}

/** Sends a pending or expired invitation again with a new link and a new 7-day validity. */
export async function resendInvitation(
  deps: InvitationDeps,
  actor: Actor,
  teamId: string,
  invitationId: string,
  inviterLocale: Locale,
): Promise<TeamInvitation> {
  return sendInvitation(deps, actor, teamId, inviterLocale, async (tx, tokenHash) => {
    const invitation = await lockedInvitation(tx, teamId, invitationId)
    await assertNotMember(tx, teamId, invitation.email)
    const [newer] = await queryRows(
      tx,
      sql`SELECT 1 FROM invitations WHERE team_id = ${teamId} AND email = ${invitation.email}
            AND status = 'pending' AND id <> ${invitation.id}`,
    )
    if (newer) throw new AppError('conflict', 'teams.alreadyInvited')
    await assertRoomForMember(tx, deps.plans, teamId, invitation.id)
    await tx.execute(
      sql`UPDATE invitations SET status = 'pending', token_hash = ${tokenHash}, expires_at = ${validFor},
            sent_at = now(), invited_by_user_id = ${actor.id}
          WHERE id = ${invitation.id}`,
    )
    return invitation
  })
}

/** Revoking keeps the row (as history) and kills its link. */
export async function revokeInvitation(
  db: Db,
  actor: Actor,
  teamId: string,
  invitationId: string,
): Promise<TeamInvitation> {
  return db.transaction(async (tx) => {
    await authorizeTeam(tx, actor, teamId, 'invite_members', { lock: true })
    const invitation = await lockedInvitation(tx, teamId, invitationId)
    await tx.execute(sql`UPDATE invitations SET status = 'revoked' WHERE id = ${invitation.id}`)
    return { ...invitation, status: 'revoked' }
  })
}

const invalidInvitation = () => new AppError('not_found', 'teams.invitationInvalid')
const expiredInvitation = () => new AppError('conflict', 'teams.invitationExpired', { reason: 'expired' })

interface TokenRow extends Record<string, unknown> {
  id: string
  team_id: string
  team_name: string
  email: string
  role: TeamRole
  status: InvitationStatus
  expired: boolean
  invited_by_email: string | null
  expires_at: SqlTimestamp
}

async function invitationByToken(db: Db | Tx, token: string, lock = false): Promise<TokenRow | undefined> {
  if (!invitationTokenSchema.safeParse(token).success) return undefined
  const [row] = await queryRows<TokenRow>(
    db,
    sql`SELECT i.id, i.team_id, t.name AS team_name, i.email, i.role, i.status,
          (i.expires_at <= now()) AS expired, inviter.email AS invited_by_email, i.expires_at
        FROM invitations i
        JOIN teams t ON t.id = i.team_id
        LEFT JOIN users inviter ON inviter.id = i.invited_by_user_id
        WHERE i.token_hash = ${hashInvitationToken(token)}
        ${lock ? sql`FOR UPDATE OF i` : sql``}`,
  )
  return row
}

/**
 * What the accept page shows to whoever holds the link (signed in or not). Only a pending,
 * unexpired invitation is shown; the token is the secret, so no account is needed to see it.
 */
export async function previewInvitation(db: Db, token: string): Promise<InvitationPreview> {
  const row = await invitationByToken(db, token)
  if (!row || (row.status !== 'pending' && row.status !== 'expired')) throw invalidInvitation()
  if (row.status === 'expired' || row.expired) throw expiredInvitation()
  return {
    teamName: row.team_name,
    email: row.email,
    role: row.role,
    invitedByEmail: row.invited_by_email,
    expiresAt: isoTimestamp(row.expires_at),
  }
}

/**
 * Accepting (§4, §5): the invitation must be pending, unexpired and addressed to the signed-in
 * email; the status change and the new membership are one transaction. Accepting after expires_at
 * marks the invitation expired (that write is kept) and fails. Locks: the team first, then the
 * invitation (the order every team write uses), so two accepts of one invitation take turns and
 * the second finds it accepted.
 */
export async function acceptInvitation(
  db: Db,
  plans: PlanGate,
  actor: Actor,
  token: string,
): Promise<AcceptedInvitation> {
  const first = await invitationByToken(db, token)
  if (!first) throw invalidInvitation()
  const outcome = await db.transaction(async (tx): Promise<AcceptedInvitation | AppError> => {
    await tx.execute(sql`SELECT id FROM teams WHERE id = ${first.team_id} FOR UPDATE`)
    const row = await invitationByToken(tx, token, true)
    if (!row) throw invalidInvitation()
    const [membership] = await queryRows(
      tx,
      sql`SELECT 1 FROM team_members WHERE team_id = ${row.team_id} AND user_id = ${actor.id}`,
    )
    if (row.status === 'accepted' && membership && row.email === actor.email) {
      throw new AppError('conflict', 'teams.alreadyMember')
    }
    if (row.status === 'expired') throw expiredInvitation()
    if (row.status !== 'pending') throw invalidInvitation()
    if (row.expired) {
      await tx.execute(sql`UPDATE invitations SET status = 'expired' WHERE id = ${row.id}`)
      return expiredInvitation()
    }
    if (row.email !== actor.email) throw new AppError('forbidden', 'teams.invitationWrongEmail')
    if (membership) throw new AppError('conflict', 'teams.alreadyMember')
    await assertRoomForMember(tx, plans, row.team_id, row.id)
    await tx.execute(
      sql`UPDATE invitations SET status = 'accepted', accepted_at = now() WHERE id = ${row.id}`,
    )
    await tx.execute(
      sql`INSERT INTO team_members (team_id, user_id, role) VALUES (${row.team_id}, ${actor.id}, ${row.role})`,
    )
    return { teamId: row.team_id, teamName: row.team_name, role: row.role }
  })
  if (outcome instanceof AppError) throw outcome
  return outcome
}
