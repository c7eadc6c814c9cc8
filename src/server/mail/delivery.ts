import { sql } from 'drizzle-orm'
import type { Transporter } from 'nodemailer'
import type { Database } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'
import { createQueueWorker, type QueueWorker } from '../jobs/queue-worker.ts'
import type { Logger } from '../log.ts'
import { MAIL_CHANNEL, redactSecrets } from './outbox.ts'
import { fillPlaceholders, type MailKey, openSecret } from './sealing.ts'

/** How often due mail (retries, and mail another process queued while we missed the NOTIFY) is looked for. */
export const POLL_INTERVAL_MS = 10_000
/** A claimed row becomes due again after this long if its process died while sending it. */
const LEASE_SECONDS = 120
/** After this many failed attempts a mail is marked failed (it stays in the outbox for admins). */
export const MAX_ATTEMPTS = 8
const BATCH_SIZE = 20

/** Seconds to wait after the n-th failed attempt: 30 s, 1 min, 2 min, … capped at one hour. */
export function retryDelaySeconds(attempt: number): number {
  return Math.min(30 * 2 ** (attempt - 1), 3600)
}

interface ClaimedMail {
  id: string
  to_address: string
  subject: string
  text_body: string
  html_body: string | null
  secrets: string[]
  attempts: number
}

/** The outbox's worker (jobs/queue-worker.ts); `stop` also closes the SMTP pool. */
export type MailDelivery = QueueWorker

/**
 * Sends the outbox: SMTP through a pooled nodemailer transport when `smtpUrl` is set, otherwise
 * the mail is written to the server log (its secrets only when `logSecrets`: outside production)
 * and marked 'logged'. A mail's secrets are sealed in the outbox (sealing.ts) and opened only to
 * send it; once sent or logged, the outbox keeps the mail without its secrets. Several
 * processes may run this at once: rows are claimed with FOR UPDATE SKIP LOCKED and leased, so each
 * mail goes out once (at least once if a process dies mid-send). Failures are retried with back-off.
 */
export function createMailDelivery(deps: {
  database: Database
  smtpUrl: string | undefined
  mailFrom: string
  log: Logger
  logSecrets?: boolean
  /** Opens the sealed secrets of queued mail (sealing.ts). */
  key: MailKey
}): MailDelivery {
  const { database, smtpUrl, mailFrom, log, logSecrets = false, key } = deps
  const db = database.db
  let transport: Transporter | undefined

  // nodemailer is loaded with the first mail over SMTP: without SMTP_URL it is never needed, and
  // loading it cost every start a few milliseconds.
  const smtp = async () => {
    const { default: nodemailer } = await import('nodemailer')
    transport ??= nodemailer.createTransport({
      url: smtpUrl,
      pool: true,
      maxConnections: 3,
      // A hanging server must not hold a round (and the mail behind it) for long.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    })
    return transport
  }

  async function claim(): Promise<ClaimedMail[]> {
    return queryRows<ClaimedMail & Record<string, unknown>>(
      db,
      sql`UPDATE mail_outbox
          SET attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
          WHERE id IN (
            SELECT id FROM mail_outbox
            WHERE status = 'pending' AND next_attempt_at <= now()
            ORDER BY next_attempt_at
            LIMIT ${BATCH_SIZE}
            FOR UPDATE SKIP LOCKED)
          RETURNING id, to_address, subject, text_body, html_body, secrets, attempts`,
    )
  }

  async function send(mail: ClaimedMail) {
    try {
      const secrets = mail.secrets.map((sealed) => openSecret(key, sealed))
      const secretAt = (index: number) => secrets[index] ?? ''
      const text = fillPlaceholders(mail.text_body, secretAt)
      if (smtpUrl) {
        const html = fillPlaceholders(mail.html_body, secretAt)
        await (await smtp()).sendMail({
          from: mailFrom,
          to: mail.to_address,
          subject: fillPlaceholders(mail.subject, secretAt),
          text,
          ...(html && { html }),
        })
      } else {
        log.info('mail not sent (SMTP_URL is unset); admins read it at /email-debug', {
          mailId: mail.id,
          to: mail.to_address,
          subject: logSecrets
            ? fillPlaceholders(mail.subject, secretAt)
            : redactSecrets(mail.subject, mail.secrets),
          text: logSecrets ? text : redactSecrets(mail.text_body, mail.secrets),
        })
      }
      await db.execute(
        sql`UPDATE mail_outbox SET status = ${smtpUrl ? 'sent' : 'logged'}, sent_at = now(), last_error = NULL,
              subject = ${redactSecrets(mail.subject, mail.secrets)},
              text_body = ${redactSecrets(mail.text_body, mail.secrets)},
              html_body = ${redactSecrets(mail.html_body, mail.secrets)}, secrets = '{}'
            WHERE id = ${mail.id}`,
      )
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error)
      const final = mail.attempts >= MAX_ATTEMPTS
      log.warn('mail delivery failed', { mailId: mail.id, attempt: mail.attempts, final, error: message })
      await db.execute(
        final
          ? sql`UPDATE mail_outbox SET status = 'failed', last_error = ${message} WHERE id = ${mail.id}`
          : sql`UPDATE mail_outbox SET last_error = ${message},
                  next_attempt_at = now() + make_interval(secs => ${retryDelaySeconds(mail.attempts)})
                WHERE id = ${mail.id}`,
      )
    }
  }

  const worker = createQueueWorker({
    name: 'mail delivery',
    database,
    channel: MAIL_CHANNEL,
    pollIntervalMs: POLL_INTERVAL_MS,
    log,
    drain: async () => {
      const batch = await claim()
      await Promise.all(batch.map(send))
      return batch.length === BATCH_SIZE
    },
    onStop: () => transport?.close(),
  })
  return { start: worker.start, deliverDue: worker.deliverDue, stop: worker.stop }
}
