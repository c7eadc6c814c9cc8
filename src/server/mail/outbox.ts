import { sql } from 'drizzle-orm'
import type { Db, Tx } from '../db/client.ts'
import { mailOutbox } from '../db/schema/index.ts'
import { fillPlaceholders, type MailKey, sealSecret, withPlaceholders } from './sealing.ts'

/** The NOTIFY channel that wakes the delivery worker of every app process when a mail is queued. */
export const MAIL_CHANNEL = 'mail_outbox'

interface MailParts {
  /** What the mail is for ('login_code', 'password_reset', 'team_invitation', …). */
  kind: string
  to: string
  subject: string
  text: string
  html?: string
}

/**
 * A mail, and what in it is a secret (a sign-in code, a link's token): stored sealed with `key`
 * (sealing.ts), never shown to admins, printed to the log only outside production, and gone from
 * the outbox once the mail is sent.
 */
export type OutgoingMail = MailParts & ({ secrets?: undefined } | { secrets: string[]; key: MailKey })

export const REDACTED = '[redacted]'

/** `text` with every secret in it (and every sealed secret's placeholder) replaced by REDACTED. */
export function redactSecrets(text: string, secrets: readonly string[]): string
export function redactSecrets(text: string | null, secrets: readonly string[]): string | null
export function redactSecrets(text: string | null, secrets: readonly string[]): string | null {
  // Rows queued before secrets were sealed hold them in the text itself.
  const plain = secrets.filter((secret) => secret && !secret.startsWith('v1:'))
  return fillPlaceholders(withPlaceholders(text, plain), () => REDACTED)
}

/**
 * Queues a mail in the caller's transaction, so it exists exactly when the write that caused it
 * commits. The NOTIFY is delivered on that commit too, so a delivery worker sends it right after
 * (see delivery.ts); a failed send is retried from the table and never fails the write.
 * Render the texts with `renderMail` (render.ts) in the recipient's language (`recipientLocale`).
 */
export async function enqueueMail(db: Db | Tx, mail: OutgoingMail): Promise<string> {
  const secrets = mail.secrets ?? []
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      toAddress: mail.to.trim().toLowerCase(),
      subject: withPlaceholders(mail.subject, secrets),
      textBody: withPlaceholders(mail.text, secrets),
      htmlBody: withPlaceholders(mail.html ?? null, secrets),
      secrets: mail.secrets ? mail.secrets.map((secret) => sealSecret(mail.key, secret)) : [],
    })
    .returning({ id: mailOutbox.id })
  await db.execute(sql`SELECT pg_notify(${MAIL_CHANNEL}, '')`)
  return row!.id
}
