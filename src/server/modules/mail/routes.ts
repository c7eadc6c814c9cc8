import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import { AppError } from '../../../domain/errors.ts'
import {
  type MailStatus,
  mailStatuses,
  mailTestInput,
  type OutboxDetail,
  type OutboxItem,
  type OutboxOverview,
  outboxQuery,
} from '../../../domain/mail.ts'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { mailOutbox } from '../../db/schema/index.ts'
import { clientIp } from '../../http/context.ts'
import type { UserEnv } from '../../http/env.ts'
import { jsonBody, pathParam, queryParams } from '../../http/input.ts'
import { requireGlobalAdmin } from '../../http/session.ts'
import { enqueueMail, MAIL_CHANNEL } from '../../mail/outbox.ts'
import { renderMail } from '../../mail/render.ts'
import { enforceRateLimits } from '../auth/rate-limits.ts'

type Row = typeof mailOutbox.$inferSelect
const LIST_LIMIT = 50

function toItem(row: Row): OutboxItem {
  return {
    id: row.id,
    kind: row.kind,
    to: row.toAddress,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    nextAttemptAt: row.nextAttemptAt.toISOString(),
  }
}

const notFound = new AppError('not_found', 'mail.notFound')

/**
 * `/mail-outbox` (global admins): read the outbox — every mail, also the ones never sent because
 * SMTP is not configured — send a test mail, and queue a failed mail again.
 */
export function mailOutboxRoutes(deps: {
  db: Db
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'appUrl' | 'rateLimitMultiplier'>
}) {
  const { db, config } = deps
  return new Hono<UserEnv>()
    .use(requireGlobalAdmin)
    .get('/', async (c) => {
      const query = queryParams(c, outboxQuery)
      const filters: SQL[] = []
      if (query.status) filters.push(eq(mailOutbox.status, query.status))
      if (query.to)
        filters.push(sql`${mailOutbox.toAddress} LIKE ${`%${query.to.replace(/[\\%_]/g, '\\$&')}%`}`)
      const rows = await db
        .select()
        .from(mailOutbox)
        .where(filters.length > 0 ? and(...filters) : undefined)
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
        .limit(LIST_LIMIT)
      const countRows = await db
        .select({ status: mailOutbox.status, count: sql<number>`count(*)` })
        .from(mailOutbox)
        .groupBy(mailOutbox.status)
      const counts = Object.fromEntries(mailStatuses.map((s) => [s, 0])) as Record<MailStatus, number>
      for (const row of countRows) counts[row.status] = Number(row.count)
      return c.json({
        smtpConfigured: config.smtpUrl !== undefined,
        from: config.mailFrom,
        counts,
        items: rows.map(toItem),
      } satisfies OutboxOverview)
    })
    .get('/:id', async (c) => {
      const id = pathParam(c.req.param('id'), z.uuid(), notFound)
      const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id))
      if (!row) throw notFound
      return c.json({
        mail: { ...toItem(row), text: row.textBody, html: row.htmlBody } satisfies OutboxDetail,
      })
    })
    .post('/test', async (c) => {
      const input = await jsonBody(c, mailTestInput)
      const admin = c.get('user')
      await enforceRateLimits(
        db,
        'mail-test',
        { ip: clientIp(c), account: admin.email },
        config.rateLimitMultiplier,
      )
      const rendered = renderMail({
        locale: c.get('locale'),
        subject: 'mail.test.subject',
        intro: [['mail.test.body', { admin: admin.email }]],
        appUrl: config.appUrl,
      })
      const id = await enqueueMail(db, { kind: 'test', to: input.to, ...rendered })
      return c.json({ id }, 201)
    })
    .post('/:id/retry', async (c) => {
      const id = pathParam(c.req.param('id'), z.uuid(), notFound)
      const [row] = await db
        .update(mailOutbox)
        .set({ status: 'pending', attempts: 0, nextAttemptAt: sql`now()`, lastError: null })
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'failed')))
        .returning()
      if (!row) {
        const [exists] = await db.select({ id: mailOutbox.id }).from(mailOutbox).where(eq(mailOutbox.id, id))
        throw exists ? new AppError('conflict', 'mail.notRetryable') : notFound
      }
      await db.execute(sql`SELECT pg_notify(${MAIL_CHANNEL}, '')`)
      return c.json({ mail: toItem(row) })
    })
}
