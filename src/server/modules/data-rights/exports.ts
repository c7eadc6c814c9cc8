import { and, asc, count, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm'
import type { Actor } from '../../../domain/auth.ts'
import { type DataExport, EXPORT_FORMAT, type ExportArchive } from '../../../domain/data-rights.ts'
import { AppError } from '../../../domain/errors.ts'
import { markdownPathOf, promptToMarkdownFile } from '../../../domain/prompt-transfer.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'
import {
  apiKeys,
  auditLog,
  conversationMessagePrompts,
  conversationMessages,
  conversations,
  dataExports,
  profiles,
  prompts,
  sessions,
  teamMembers,
  teams,
  users,
} from '../../db/schema/index.ts'
import type { Logger } from '../../log.ts'
import { conversationOwnedBy } from '../conversations/index.ts'
import { exportedPrompts, promptOwnedBy } from '../prompts/index.ts'

/** Prompts (and conversations) read per statement, and how often progress is written. */
const BATCH = 200
/** An export still 'running' this long after it started belongs to a process that died: take it over. */
const STALE_MINUTES = 10
/** The newest audit entries about the user that an export carries. */
const AUDIT_MAX = 10_000

type ExportRow = typeof dataExports.$inferSelect

function toExport(row: ExportRow): DataExport {
  return {
    id: row.id,
    status: row.status,
    done: row.done,
    total: row.total,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    downloadedAt: row.downloadedAt?.toISOString() ?? null,
  }
}

const exportColumns = {
  id: dataExports.id,
  userId: dataExports.userId,
  status: dataExports.status,
  done: dataExports.done,
  total: dataExports.total,
  archive: sql<null>`NULL`,
  createdAt: dataExports.createdAt,
  startedAt: dataExports.startedAt,
  finishedAt: dataExports.finishedAt,
  downloadedAt: dataExports.downloadedAt,
}

export async function latestExport(db: Db, actor: Actor): Promise<DataExport | null> {
  const [row] = await db
    .select(exportColumns)
    .from(dataExports)
    .where(eq(dataExports.userId, actor.id))
    .orderBy(desc(dataExports.createdAt))
    .limit(1)
  return row ? toExport(row) : null
}

/**
 * Starts an export, or returns the one of the user still being built. The build runs after the
 * answer, in this process (`runExports`); one that a dead process left behind is taken over.
 */
export async function startExport(db: Db, log: Logger, actor: Actor): Promise<DataExport> {
  const row = await db.transaction(async (tx) => {
    // The user's row lock makes two simultaneous starts make one export.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, actor.id)).for('update')
    const [open] = await tx
      .select(exportColumns)
      .from(dataExports)
      .where(and(eq(dataExports.userId, actor.id), inArray(dataExports.status, ['pending', 'running'])))
      .limit(1)
    if (open) return open
    const [created] = await tx.insert(dataExports).values({ userId: actor.id }).returning(exportColumns)
    return created!
  })
  void runExports(db, log)
  return toExport(row)
}

/** The archive, once: the download clears it, and a second one is a 409 that says to start anew. */
export async function downloadExport(db: Db, actor: Actor, exportId: string): Promise<ExportArchive> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(dataExports)
      .where(and(eq(dataExports.id, exportId), eq(dataExports.userId, actor.id)))
      .for('update')
    if (!row) throw new AppError('not_found', 'account.exportNotFound')
    if (row.status === 'downloaded') throw new AppError('conflict', 'account.exportDownloaded')
    if (row.status === 'failed') throw new AppError('conflict', 'account.exportFailed')
    if (row.status !== 'ready' || row.archive === null) {
      throw new AppError('conflict', 'account.exportNotReady', { reason: 'not_ready' })
    }
    await tx
      .update(dataExports)
      .set({ status: 'downloaded', archive: null, downloadedAt: new Date() })
      .where(eq(dataExports.id, exportId))
    return JSON.parse(row.archive) as ExportArchive
  })
}

/** Claims the oldest waiting export (FOR UPDATE SKIP LOCKED: any number of processes may run this). */
async function claimExport(db: Db): Promise<{ id: string; user_id: string } | undefined> {
  const [claimed] = await queryRows<{ id: string; user_id: string }>(
    db,
    sql`UPDATE data_exports SET status = 'running', started_at = now(), done = 0
        WHERE id = (
          SELECT id FROM data_exports
          WHERE status = 'pending'
             OR (status = 'running' AND started_at < now() - make_interval(mins => ${STALE_MINUTES}))
          ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED
        )
        RETURNING id, user_id`,
  )
  return claimed
}

/**
 * The run in progress per database: one app per process in production, but a test worker holds
 * many apps one after the other (and some at once), and a call must never join another
 * database's run.
 */
const runningByDatabase = new WeakMap<Db, Promise<void>>()

/** Builds every waiting export, one after the other; a call while it runs joins the running one. */
export function runExports(db: Db, log: Logger): Promise<void> {
  const running = runningByDatabase.get(db)
  if (running) return running
  const run = (async () => {
    try {
      for (let job = await claimExport(db); job; job = await claimExport(db)) {
        try {
          const archive = await buildArchive(db, job.user_id, (done, total) =>
            db.update(dataExports).set({ done, total }).where(eq(dataExports.id, job.id)),
          )
          await db
            .update(dataExports)
            .set({ status: 'ready', archive: JSON.stringify(archive), finishedAt: new Date() })
            .where(eq(dataExports.id, job.id))
        } catch (error) {
          log.error('data export failed', { err: error, exportId: job.id })
          await db
            .update(dataExports)
            .set({ status: 'failed', finishedAt: new Date() })
            .where(eq(dataExports.id, job.id))
        }
      }
    } catch (error) {
      log.error('data exports could not run', { err: error })
    } finally {
      runningByDatabase.delete(db)
    }
  })()
  runningByDatabase.set(db, run)
  return run
}

/** Everything of one user, as the archive's JSON document. */
export async function buildArchive(
  db: Db,
  userId: string,
  progress: (done: number, total: number) => Promise<unknown>,
): Promise<ExportArchive> {
  const [user] = await db.select().from(users).where(eq(users.id, userId))
  if (!user) throw new Error('export of a missing user')
  const [profile] = await db.select().from(profiles).where(eq(profiles.userId, userId))
  // Team data only while a member (decisions 0008 and 0242): what a former member started in a team
  // stayed with it, messages written there since included.
  const ownPrompts = promptOwnedBy(userId, userId)
  const [promptCount] = await db.select({ n: count() }).from(prompts).where(ownPrompts)
  const ownConversations = await db
    .select({
      id: conversations.id,
      title: conversations.title,
      tags: conversations.tags,
      team: teams.name,
      createdAt: conversations.createdAt,
      updatedAt: conversations.updatedAt,
    })
    .from(conversations)
    .leftJoin(teams, eq(teams.id, conversations.teamId))
    .where(conversationOwnedBy(userId))
    .orderBy(asc(conversations.createdAt), asc(conversations.id))
  const total = (promptCount?.n ?? 0) + ownConversations.length
  let done = 0
  await progress(done, total)

  const exported = await exportedPrompts(db, ownPrompts, (count) => progress(count, total))
  done = exported.length
  const markdown: Record<string, string> = {}
  const taken = new Set<string>()
  for (const prompt of exported) markdown[markdownPathOf(prompt.name, taken)] = promptToMarkdownFile(prompt)

  const exportedConversations: Record<string, unknown>[] = []
  for (let at = 0; at < ownConversations.length; at += BATCH) {
    const batch = ownConversations.slice(at, at + BATCH)
    const ids = batch.map((conversation) => conversation.id)
    const messages = await db
      .select({
        id: conversationMessages.id,
        conversationId: conversationMessages.conversationId,
        role: conversationMessages.role,
        content: conversationMessages.content,
        model: conversationMessages.model,
        fromMe: sql<boolean>`${conversationMessages.createdByUserId} IS NOT DISTINCT FROM ${userId}`,
        createdAt: conversationMessages.createdAt,
      })
      .from(conversationMessages)
      .where(inArray(conversationMessages.conversationId, ids))
      .orderBy(asc(conversationMessages.createdAt), asc(conversationMessages.id))
    const attachments = await db
      .select({
        messageId: conversationMessagePrompts.messageId,
        promptId: conversationMessagePrompts.promptId,
        promptVersionId: conversationMessagePrompts.promptVersionId,
        notes: conversationMessagePrompts.notes,
      })
      .from(conversationMessagePrompts)
      .innerJoin(conversationMessages, eq(conversationMessages.id, conversationMessagePrompts.messageId))
      .where(inArray(conversationMessages.conversationId, ids))
    for (const conversation of batch) {
      exportedConversations.push({
        ...conversation,
        createdAt: conversation.createdAt.toISOString(),
        updatedAt: conversation.updatedAt.toISOString(),
        messages: messages
          .filter((message) => message.conversationId === conversation.id)
          .map(({ conversationId: _, ...message }) => ({
            ...message,
            createdAt: message.createdAt.toISOString(),
            attachments: attachments
              .filter((attachment) => attachment.messageId === message.id)
              .map(({ messageId: __, ...attachment }) => attachment),
          })),
      })
    }
    done += batch.length
    await progress(done, total)
  }

  const memberships = await db
    .select({ name: teams.name, role: teamMembers.role, joinedAt: teamMembers.createdAt })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.userId, userId))
  const mySessions = await db
    .select({
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      ipAddress: sessions.ipAddress,
      userAgent: sessions.userAgent,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
  const keys = await db
    .select({
      name: apiKeys.name,
      publicKey: apiKeys.publicKey,
      scope: apiKeys.scope,
      team: teams.name,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .leftJoin(teams, eq(teams.id, apiKeys.teamId))
    .where(and(eq(apiKeys.ownerUserId, userId), isNull(apiKeys.revokedAt)))

  const auditEntries = await db
    .select({
      at: auditLog.createdAt,
      action: auditLog.action,
      objectType: auditLog.objectType,
      objectId: auditLog.objectId,
      teamId: auditLog.teamId,
      clientAddress: auditLog.clientAddress,
    })
    .from(auditLog)
    .where(
      or(
        eq(auditLog.actorUserId, userId),
        and(eq(auditLog.objectType, 'user'), eq(auditLog.objectId, userId)),
        eq(auditLog.actorEmail, user.email),
      ),
    )
    .orderBy(desc(auditLog.createdAt))
    .limit(AUDIT_MAX)

  return {
    format: EXPORT_FORMAT,
    exportedAt: new Date().toISOString(),
    profile: {
      email: user.email,
      name: user.name,
      createdAt: user.createdAt.toISOString(),
      globalRole: user.role,
      ...(profile && {
        displayName: profile.displayName,
        language: profile.preferredLocale,
        timezone: profile.timezone,
        theme: profile.uiTheme,
        notifications: profile.notificationPrefs,
      }),
    },
    prompts: exported,
    conversations: exportedConversations,
    teams: memberships.map((team) => ({ ...team, joinedAt: team.joinedAt?.toISOString() ?? null })),
    sessions: mySessions.map((session) => ({
      ...session,
      createdAt: session.createdAt.toISOString(),
      expiresAt: session.expiresAt.toISOString(),
    })),
    apiKeys: keys.map((key) => ({
      ...key,
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    })),
    audit: auditEntries.map((entry) => ({ ...entry, at: entry.at.toISOString() })),
    markdown,
  }
}
