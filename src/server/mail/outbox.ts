import { sql } from 'drizzle-orm'
import type { Db, Tx } from '../db/client.ts'
import { mailOutbox } from '../db/schema/index.ts'

/** The NOTIFY channel that wakes the delivery worker of every app process when a mail is queued. */
export const MAIL_CHANNEL = 'mail_outbox'

export interface OutgoingMail {
  /** What the mail is for ('login_code', 'password_reset', 'team_invitation', …). */
  kind: string
  to: string
  subject: string
  text: string
  html?: string
  /**
   * What in the mail is a secret (a sign-in code, a link's token): never shown to admins, printed to
   * the log only outside production, and removed from the outbox copy once the mail is sent.
   */
  secrets?: string[]
}

export const REDACTED = '[redacted]'

/** `text` with every secret in it replaced by REDACTED. */
export function redactSecrets(text: string, secrets: readonly string[]): string
export function redactSecrets(text: string | null, secrets: readonly string[]): string | null
export function redactSecrets(text: string | null, secrets: readonly string[]): string | null {
  if (text === null) return null
  return secrets.reduce(
    (redacted, secret) => (secret ? redacted.replaceAll(secret, REDACTED) : redacted),
    text,
  )
}

/**
 * Queues a mail in the caller's transaction, so it exists exactly when the write that caused it
 * commits. The NOTIFY is delivered on that commit too, so a delivery worker sends it right after
 * (see delivery.ts); a failed send is retried from the table and never fails the write.
 * Render the texts with `renderMail` (render.ts) in the recipient's language (`recipientLocale`).
 */
export async function enqueueMail(db: Db | Tx, mail: OutgoingMail): Promise<string> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      toAddress: mail.to.trim().toLowerCase(),
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
      secrets: mail.secrets ?? [],
    })
    .returning({ id: mailOutbox.id })
  await db.execute(sql`SELECT pg_notify(${MAIL_CHANNEL}, '')`)
  return row!.id
}
