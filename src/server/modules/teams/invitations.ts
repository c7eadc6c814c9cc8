import { and, desc, eq, inArray, ne, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { INVITATION_VALID_DAYS } from '../../../domain/constants.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Locale } from '../../../domain/messages/index.ts'
import type { TeamRole } from '../../../domain/permissions.ts'
import type {
  AcceptedInvitation,
  InvitationPreview,
  InvitationStatus,
  TeamInvitation,
} from '../../../domain/teams.ts'
import { invitationTokenSchema } from '../../../domain/teams.ts'
import { recordAudit } from '../../core/audit.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import { type Actor, authorizeTeam } from '../../core/team-access.ts'
import { roleInTeam } from '../../core/team-membership.ts'
import type { Db, Tx } from '../../db/client.ts'
import { invitations, teamMembers, teams, users } from '../../db/schema/index.ts'
import type { MailKey } from '../../mail/sealing.ts'
import { consumeRateLimit } from '../../rate-limit.ts'
import { queueInvitationMail } from './invitation-mail.ts'
import { hashInvitationToken, newInvitationToken } from './invitation-token.ts'

export interface InvitationDeps {
  db: Db
  /** The public origin for links in mails (APP_URL). */
  appUrl: string
  /** Seals the invitation link's token in the outbox (mail/sealing.ts). */
  mailKey: MailKey
  rateLimitMultiplier: number
  /** The plan gate: a team's members plus pending invitations stay within its plan. */
  plans: PlanGate
}

/** Invitations (and resends) an admin may send per hour: each one is a mail to a stranger. */
const INVITES_PER_HOUR = 50
/** Invitations one address may receive per day, from all teams together: nobody is mail-bombed. */
const INVITES_PER_RECIPIENT_PER_DAY = 5

const inviter = alias(users, 'inviter')

/** A pending invitation past its expiry reads as expired, before anyone tries to accept it. */
const effectiveStatus = sql<InvitationStatus>`CASE WHEN ${invitations.status} = 'pending'
  AND ${invitations.expiresAt} <= now() THEN 'expired' ELSE ${invitations.status} END`

const invitationColumns = {
  id: invitations.id,
  teamId: invitations.teamId,
  email: invitations.email,
  role: invitations.role,
  status: effectiveStatus.as('status'),
  // Named apart: the list reads these columns from a subquery, where two `email`s would clash.
  invitedByEmail: sql<string | null>`${inviter.email}`.as('invited_by_email'),
  expiresAt: invitations.expiresAt,
  sentAt: invitations.sentAt,
  createdAt: invitations.createdAt,
}

type Timestamps = 'expiresAt' | 'sentAt' | 'createdAt'

function toInvitation(row: Omit<TeamInvitation, Timestamps> & Record<Timestamps, Date>): TeamInvitation {
  return {
    ...row,
    expiresAt: row.expiresAt.toISOString(),
    sentAt: row.sentAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  }
}

async function selectInvitations(db: Db | Tx, where: SQL | undefined): Promise<TeamInvitation[]> {
  const rows = await db
    .select(invitationColumns)
    .from(invitations)
    .leftJoin(inviter, eq(inviter.id, invitations.invitedByUserId))
    .where(where)
  return rows.map(toInvitation)
}

/**
 * The team's open invitations (pending or expired), the latest one per email, newest first.
 * Members may list them; accepted ones show up as members, revoked ones disappear.
 */
export async function listInvitations(db: Db, actor: Actor, teamId: string): Promise<TeamInvitation[]> {
  await authorizeTeam(db, actor, teamId, 'view_team_data')
  const latest = db
    .selectDistinctOn([invitations.email], invitationColumns)
    .from(invitations)
    .leftJoin(inviter, eq(inviter.id, invitations.invitedByUserId))
    .where(eq(invitations.teamId, teamId))
    .orderBy(invitations.email, desc(invitations.sentAt), invitations.id)
    .as('latest')
  const rows = await db
    .select()
    .from(latest)
    .where(inArray(latest.status, ['pending', 'expired']))
    .orderBy(desc(latest.sentAt), latest.id)
    .limit(200)
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
  const [member] = await tx
    .select({ userId: teamMembers.userId })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(and(eq(teamMembers.teamId, teamId), eq(users.email, email)))
  if (member) throw new AppError('conflict', 'teams.alreadyMember')
}

/**
 * The plan's max team members, counting members and pending invitations; `invitationId` is the
 * one being sent again or accepted (it becomes the one added, so it is not counted twice). Called
 * after the team's row lock, inside the write's transaction; refuses with 403 plan_limit.
 */
async function assertRoomForMember(tx: Tx, plans: PlanGate, teamId: string, invitationId?: string) {
  await plans.require(tx, { context: 'team', teamId }, 'addMember', { excludingInvitationId: invitationId })
}

const validFor = sql<Date>`now() + make_interval(days => ${INVITATION_VALID_DAYS})`

function setStatus(tx: Tx, invitationId: string, status: 'expired' | 'revoked') {
  return tx.update(invitations).set({ status }).where(eq(invitations.id, invitationId))
}

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
    await queueInvitationMail(tx, deps, {
      to: written.email,
      teamName: access.team.name,
      inviterEmail: actor.email,
      role: written.role,
      token,
      requestLocale: inviterLocale,
    })
    const [invitation] = await selectInvitations(tx, eq(invitations.id, written.id))
    return invitation!
  })
}

/**
 * Team admins (and global admins) invite by email: not someone already in the team, not twice
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
      and(
        eq(invitations.teamId, teamId),
        eq(invitations.email, input.email),
        eq(invitations.status, 'pending'),
      ),
    )
    if (open?.status === 'pending') throw new AppError('conflict', 'teams.alreadyInvited')
    if (open) await setStatus(tx, open.id, 'expired')
    await assertRoomForMember(tx, deps.plans, teamId)
    const [created] = await tx
      .insert(invitations)
      .values({
        teamId,
        email: input.email,
        invitedByUserId: actor.id,
        role: input.role,
        tokenHash,
        expiresAt: validFor,
      })
      .returning({ id: invitations.id })
    await recordAudit(tx, actor, {
      action: 'member.invited',
      objectType: 'invitation',
      objectId: created!.id,
      teamId,
      after: { email: input.email, role: input.role },
    })
    return { id: created!.id, ...input }
  })
}

async function lockedInvitation(tx: Tx, teamId: string, invitationId: string): Promise<TeamInvitation> {
  await tx
    .select({ id: invitations.id })
    .from(invitations)
    .where(eq(invitations.id, invitationId))
    .for('update')
  const [invitation] = await selectInvitations(
    tx,
    and(eq(invitations.id, invitationId), eq(invitations.teamId, teamId)),
  )
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
    const [newer] = await tx
      .select({ id: invitations.id })
      .from(invitations)
      .where(
        and(
          eq(invitations.teamId, teamId),
          eq(invitations.email, invitation.email),
          eq(invitations.status, 'pending'),
          ne(invitations.id, invitation.id),
        ),
      )
    if (newer) throw new AppError('conflict', 'teams.alreadyInvited')
    await assertRoomForMember(tx, deps.plans, teamId, invitation.id)
    await tx
      .update(invitations)
      .set({
        status: 'pending',
        tokenHash,
        expiresAt: validFor,
        sentAt: sql`now()`,
        invitedByUserId: actor.id,
      })
      .where(eq(invitations.id, invitation.id))
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
    await setStatus(tx, invitation.id, 'revoked')
    await recordAudit(tx, actor, {
      action: 'invitation.revoked',
      objectType: 'invitation',
      objectId: invitation.id,
      teamId,
      before: { email: invitation.email, role: invitation.role, status: invitation.status },
      after: { status: 'revoked' },
    })
    return { ...invitation, status: 'revoked' }
  })
}

const invalidInvitation = () => new AppError('not_found', 'teams.invitationInvalid')
const expiredInvitation = () => new AppError('conflict', 'teams.invitationExpired', { reason: 'expired' })

async function invitationByToken(db: Db | Tx, token: string, lock = false) {
  if (!invitationTokenSchema.safeParse(token).success) return undefined
  const query = db
    .select({
      id: invitations.id,
      teamId: invitations.teamId,
      teamName: teams.name,
      email: invitations.email,
      role: invitations.role,
      status: invitations.status,
      expired: sql<boolean>`${invitations.expiresAt} <= now()`,
      invitedByEmail: inviter.email,
      expiresAt: invitations.expiresAt,
    })
    .from(invitations)
    .innerJoin(teams, eq(teams.id, invitations.teamId))
    .leftJoin(inviter, eq(inviter.id, invitations.invitedByUserId))
    .where(eq(invitations.tokenHash, hashInvitationToken(token)))
  const [row] = await (lock ? query.for('update', { of: invitations }) : query)
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
    teamName: row.teamName,
    email: row.email,
    role: row.role,
    invitedByEmail: row.invitedByEmail,
    expiresAt: row.expiresAt.toISOString(),
  }
}

/**
 * Accepting: the invitation must be pending, unexpired and addressed to the signed-in
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
    // The lock authorizeTeam takes, so accepting queues with the team's other member changes.
    await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, first.teamId)).for('no key update')
    const row = await invitationByToken(tx, token, true)
    if (!row) throw invalidInvitation()
    const membership = await roleInTeam(tx, row.teamId, actor.id)
    if (row.status === 'accepted' && membership && row.email === actor.email) {
      throw new AppError('conflict', 'teams.alreadyMember')
    }
    if (row.status === 'expired') throw expiredInvitation()
    if (row.status !== 'pending') throw invalidInvitation()
    if (row.expired) {
      await setStatus(tx, row.id, 'expired')
      return expiredInvitation()
    }
    if (row.email !== actor.email) throw new AppError('forbidden', 'teams.invitationWrongEmail')
    if (membership) throw new AppError('conflict', 'teams.alreadyMember')
    await assertRoomForMember(tx, plans, row.teamId, row.id)
    await tx
      .update(invitations)
      .set({ status: 'accepted', acceptedAt: sql`now()` })
      .where(eq(invitations.id, row.id))
    await tx.insert(teamMembers).values({ teamId: row.teamId, userId: actor.id, role: row.role })
    await recordAudit(tx, actor, {
      action: 'member.joined',
      objectType: 'membership',
      objectId: actor.id,
      teamId: row.teamId,
      after: { role: row.role, invitationId: row.id },
    })
    return { teamId: row.teamId, teamName: row.teamName, role: row.role }
  })
  if (outcome instanceof AppError) throw outcome
  return outcome
}
