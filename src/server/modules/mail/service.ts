import { and, count, desc, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import {
  type MailStatus,
  mailStatuses,
  type OutboxDetail,
  type OutboxItem,
  type OutboxOverview,
  type outboxQuery,
} from '../../../domain/mail.ts'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { containsText, cursorTimestamp, pageCondition, toPage } from '../../db/queries.ts'
import { mailOutbox } from '../../db/schema/index.ts'
import { enqueueMail, MAIL_CHANNEL, redactSecrets } from '../../mail/outbox.ts'
import { renderMail } from '../../mail/render.ts'

type Row = typeof mailOutbox.$inferSelect

function toItem(row: Row): OutboxItem {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: redactSecrets(row.subject, row.secrets),
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  }
}

const notFound = () => new AppError('not_found', 'mail.notFound')

/** The outbox, newest first, a page at a time, with the count of mails in each status. */
export async function listOutbox(
  db: Db,
  config: Pick<Config, 'smtpUrl' | 'mailFrom'>,
  query: z.output<typeof outboxQuery>,
): Promise<OutboxOverview> {
  const rows = await db
    .select({ row: mailOutbox, cursorAt: cursorTimestamp(mailOutbox.createdAt) })
    .from(mailOutbox)
    .where(
      and(
        query.status ? eq(mailOutbox.status, query.status) : undefined,
        query.to ? containsText(mailOutbox.toAddress, query.to) : undefined,
        pageCondition({ column: mailOutbox.createdAt, kind: 'timestamp' }, mailOutbox.id, query.cursor),
      ),
    )
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(query.limit + 1)
  const countRows = await db
    .select({ status: mailOutbox.status, count: count() })
    .from(mailOutbox)
    .groupBy(mailOutbox.status)
  const counts = Object.fromEntries(mailStatuses.map((status) => [status, 0])) as Record<MailStatus, number>
  for (const row of countRows) counts[row.status] = Number(row.count)
  const page = toPage(
    rows.map(({ row, cursorAt }) => ({ ...row, cursorAt })),
    query.limit,
    (row) => row.cursorAt,
    toItem,
  )
  return { smtpConfigured: config.smtpUrl !== undefined, from: config.mailFrom, counts, ...page }
}

export async function getOutboxMail(db: Db, id: string): Promise<OutboxDetail> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id))
  if (!row) throw notFound()
  // A waiting mail still holds its secrets (a code, a link); they are for the recipient only.
  return {
    ...toItem(row),
    text: redactSecrets(row.textBody, row.secrets),
    html: redactSecrets(row.htmlBody, row.secrets),
  }
}

/** Queues a test mail from `admin` to `to`, in the admin's language. */
export async function sendTestMail(db: Db, appUrl: string, admin: Actor, to: string): Promise<OutboxItem> {
  const rendered = renderMail({
    locale: admin.locale,
    subject: 'mail.test.subject',
    intro: [['mail.test.body', { admin: admin.email }]],
    appUrl,
  })
  const id = await enqueueMail(db, { kind: 'test', to, ...rendered })
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id))
  return toItem(row!)
}

/** Queues a failed mail again (409 for a mail in any other status) and wakes the delivery. */
export async function retryMail(db: Db, id: string): Promise<OutboxItem> {
  const [row] = await db
    .update(mailOutbox)
    .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed')))
    .returning()
  if (!row) {
    const [exists] = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.id, id))
    throw exists ? new AppError('conflict', 'mail.notRetryable') : notFound()
  }
  await db.execute(sql`SELECT pg_notify(${MAIL_CHANNEL}, '')`)
  return toItem(row)
}
