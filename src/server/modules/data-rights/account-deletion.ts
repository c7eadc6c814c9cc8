import { hash, randomInt, randomUUID } from 'node:crypto'
import { and, count, eq, isNull, ne, or, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { LOGIN_CODE_LENGTH } from '../../../domain/constants.ts'
import { type DeletionCheck, type deleteAccountInput, tombstoneEmail } from '../../../domain/data-rights.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Auth } from '../../auth/auth.ts'
import type { Config } from '../../config.ts'
import { recordAudit } from '../../core/audit.ts'
import type { Db, Tx } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'
import {
  accounts,
  apiKeys,
  auditLog,
  conversationMessages,
  conversations,
  dataExports,
  failedSignIns,
  invitations,
  planSubjects,
  profiles,
  prompts,
  recoverySessions,
  sessions,
  teamMembers,
  users,
  verifications,
  webhookEndpoints,
} from '../../db/schema/index.ts'
import { enqueueMail } from '../../mail/outbox.ts'
import { recipientLocale } from '../../mail/recipient-locale.ts'
import { renderMail } from '../../mail/render.ts'
import { mailKeyOf } from '../../mail/sealing.ts'
import { enforceRateLimits } from '../auth/index.ts'
import { removePrompts } from '../prompts/index.ts'
import { queueKeysToReview } from '../teams/index.ts'

export interface DataRightsDeps {
  db: Db
  auth: Auth
  config: Pick<Config, 'appUrl' | 'rateLimitMultiplier' | 'authSecret'>
}

const CODE_TTL_MS = 10 * 60 * 1000
const codeIdentifier = (userId: string) => `delete-account:${userId}`
const hashCode = (code: string) => hash('sha256', code, 'hex')

async function passwordHashOf(db: Db | Tx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ password: accounts.password })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')))
  return row?.password ?? null
}

/** Teams whose only admin the user is: they must be handed over or deleted first. */
function soleAdminTeams(db: Db | Tx, userId: string, lock = false) {
  return queryRows<{ id: string; name: string }>(
    db,
    sql`SELECT t.id, t.name FROM teams t
        JOIN team_members m ON m.team_id = t.id AND m.user_id = ${userId} AND m.role = 'admin'
        WHERE NOT EXISTS (
          SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.role = 'admin' AND o.user_id <> ${userId}
        )
        ORDER BY t.name${lock ? sql` FOR UPDATE OF t` : sql``}`,
  )
}

/** Whether the user is a global admin and no other live account is. */
async function isLastGlobalAdmin(db: Db | Tx, actor: Actor, lock = false): Promise<boolean> {
  if (actor.globalRole !== 'global_admin') return false
  const others = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'global_admin'), ne(users.id, actor.id), isNull(users.deletedAt)))
  return (await (lock ? others.for('update') : others)).length === 0
}

export async function deletionCheck(db: Db, actor: Actor): Promise<DeletionCheck> {
  const mine = (where: ReturnType<typeof eq>) => db.select({ n: count() }).from(prompts).where(where)
  const [[personal], [shared], [chats], [keys]] = await Promise.all([
    mine(and(eq(prompts.ownerUserId, actor.id), eq(prompts.visibility, 'private'))!),
    mine(and(eq(prompts.ownerUserId, actor.id), eq(prompts.visibility, 'team'))!),
    db
      .select({ n: count() })
      .from(conversations)
      .where(and(eq(conversations.ownerUserId, actor.id), isNull(conversations.teamId))),
    db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.ownerUserId, actor.id)),
  ])
  return {
    confirmWith: (await passwordHashOf(db, actor.id)) ? 'password' : 'code',
    soleAdminOf: await soleAdminTeams(db, actor.id),
    lastGlobalAdmin: await isLastGlobalAdmin(db, actor),
    personalPrompts: personal?.n ?? 0,
    teamPrompts: shared?.n ?? 0,
    personalConversations: chats?.n ?? 0,
    apiKeys: keys?.n ?? 0,
  }
}

/** Mails a code that confirms deleting an account without a password (a new code ends the last). */
export async function sendDeletionCode(deps: DataRightsDeps, actor: Actor, ip: string): Promise<void> {
  const { db, config } = deps
  if (await passwordHashOf(db, actor.id)) throw new AppError('conflict', 'account.deletionHasPassword')
  await enforceRateLimits(db, 'deletion-code', { ip, account: actor.email }, config.rateLimitMultiplier)
  const code = String(randomInt(0, 10 ** LOGIN_CODE_LENGTH)).padStart(LOGIN_CODE_LENGTH, '0')
  await db.transaction(async (tx) => {
    await tx.delete(verifications).where(eq(verifications.identifier, codeIdentifier(actor.id)))
    await tx.insert(verifications).values({
      id: randomUUID(),
      identifier: codeIdentifier(actor.id),
      value: hashCode(code),
      expiresAt: new Date(Date.now() + CODE_TTL_MS),
    })
    const rendered = renderMail({
      locale: actor.locale,
      subject: 'account.mail.codeSubject',
      intro: [['account.mail.codeBody']],
      code,
      outro: [['account.mail.codeValid']],
      appUrl: config.appUrl,
    })
    await enqueueMail(tx, {
      kind: 'account_deletion_code',
      to: actor.email,
      ...rendered,
      secrets: [code],
      key: mailKeyOf(config),
    })
  })
}

const confirmInvalid = (field: 'password' | 'code') =>
  new AppError('validation', 'account.confirmInvalid', { fields: { [field]: 'account.confirmInvalid' } })

/** Checks the password (verified before the transaction: hashing is slow) or takes the code (once). */
async function confirmIdentity(
  tx: Tx,
  actor: Actor,
  input: z.output<typeof deleteAccountInput>,
  passwordVerified: boolean | null,
) {
  if (passwordVerified !== null) {
    if (!passwordVerified) throw confirmInvalid('password')
    return
  }
  if (!input.code) throw confirmInvalid('code')
  const used = await tx
    .delete(verifications)
    .where(
      and(
        eq(verifications.identifier, codeIdentifier(actor.id)),
        eq(verifications.value, hashCode(input.code)),
        sql`${verifications.expiresAt} > now()`,
      ),
    )
    .returning({ id: verifications.id })
  if (used.length === 0) throw confirmInvalid('code')
}

/**
 * Deletes the account (decision 0180), in one transaction: personal prompts and conversations,
 * sessions, sign-in methods, keys, profile, exports and pending invitations go; team prompts and
 * messages in team conversations stay with the team, from 'Deleted user'; the users row stays as a
 * tombstone without personal data. Refused while the user is a team's only admin or the last global
 * admin. A mail to the old address confirms it.
 */
export async function deleteAccount(
  deps: DataRightsDeps,
  actor: Actor,
  input: z.output<typeof deleteAccountInput>,
  ip: string,
): Promise<void> {
  const { db, auth, config } = deps
  await enforceRateLimits(db, 'account-deletion', { ip, account: actor.email }, config.rateLimitMultiplier)
  const hash = await passwordHashOf(db, actor.id)
  const context = await auth.$context
  const passwordVerified =
    hash === null
      ? null
      : input.password
        ? await context.password.verify({ hash, password: input.password })
        : false
  const locale = await recipientLocale(db, actor.email, actor.locale)

  await db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.id)).for('update')
    await confirmIdentity(tx, actor, input, passwordVerified)
    const sole = await soleAdminTeams(tx, actor.id, true)
    if (sole.length > 0) {
      throw new AppError('conflict', 'account.soleTeamAdmin', {
        params: { teams: sole.map((team) => `“${team.name}”`).join(', ') },
        reason: 'sole_team_admin',
      })
    }
    if (await isLastGlobalAdmin(tx, actor, true)) {
      throw new AppError('conflict', 'account.lastGlobalAdmin', { reason: 'last_global_admin' })
    }

    await removePrompts(tx, and(eq(prompts.ownerUserId, actor.id), eq(prompts.visibility, 'private'))!)
    await tx
      .delete(conversations)
      .where(and(eq(conversations.ownerUserId, actor.id), isNull(conversations.teamId)))
    // What the user wrote in team conversations stays, from no one: the app shows 'Deleted user'.
    await tx
      .update(conversationMessages)
      .set({ createdByUserId: null })
      .where(eq(conversationMessages.createdByUserId, actor.id))
    // Their team keys stay with the teams (decision 0242): the admins left there review them.
    const adminOf = await tx
      .select({ teamId: teamMembers.teamId })
      .from(teamMembers)
      .where(and(eq(teamMembers.userId, actor.id), eq(teamMembers.role, 'admin')))
    for (const { teamId } of adminOf) {
      await queueKeysToReview(tx, { appUrl: config.appUrl, locale: actor.locale }, teamId, actor.id)
    }
    await tx.delete(teamMembers).where(eq(teamMembers.userId, actor.id))
    await tx.delete(invitations).where(sql`lower(${invitations.email}) = ${actor.email.toLowerCase()}`)
    await tx.delete(apiKeys).where(eq(apiKeys.ownerUserId, actor.id))
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.ownerUserId, actor.id))
    await tx.delete(sessions).where(eq(sessions.userId, actor.id))
    await tx.delete(accounts).where(eq(accounts.userId, actor.id))
    await tx.delete(verifications).where(sql`position(${actor.email} in ${verifications.identifier}) > 0`)
    await tx.delete(verifications).where(eq(verifications.identifier, codeIdentifier(actor.id)))
    await tx.delete(recoverySessions).where(eq(recoverySessions.userId, actor.id))
    await tx.delete(failedSignIns).where(eq(failedSignIns.email, actor.email))
    await tx.delete(dataExports).where(eq(dataExports.userId, actor.id))
    await tx.delete(planSubjects).where(eq(planSubjects.userId, actor.id))
    await tx.delete(profiles).where(eq(profiles.userId, actor.id))
    await tx
      .update(users)
      .set({
        email: tombstoneEmail(actor.id),
        name: '',
        image: null,
        emailVerified: false,
        role: 'user',
        banned: true,
        banReason: 'deleted',
        deletedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(users.id, actor.id))

    // The audit trail keeps what happened, without who it was (decision 0180): the one deliberate
    // use of the log's maintenance switch.
    await tx.execute(sql`SET LOCAL promptfolio.audit_maintenance = 'on'`)
    await tx
      .update(auditLog)
      .set({ actorEmail: null, clientAddress: null })
      .where(or(eq(auditLog.actorUserId, actor.id), eq(auditLog.actorEmail, actor.email)))
    await tx.execute(sql`SET LOCAL promptfolio.audit_maintenance = 'off'`)
    await recordAudit(
      tx,
      { kind: 'user', userId: actor.id, apiKeyId: null, email: null, clientAddress: null },
      { action: 'account.deleted', objectType: 'user', objectId: actor.id },
    )

    const rendered = renderMail({
      locale,
      subject: 'account.mail.deletedSubject',
      intro: [['account.mail.deletedBody']],
      outro: [['account.mail.deletedOutro']],
      appUrl: config.appUrl,
    })
    await enqueueMail(tx, { kind: 'account_deleted', to: actor.email, ...rendered })
  })
}
