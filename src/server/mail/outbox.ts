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
    })
    .returning({ id: mailOutbox.id })
  await db.execute(sql`SELECT pg_notify(${MAIL_CHANNEL}, '')`)
  return row!.id
}
