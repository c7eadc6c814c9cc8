import type { Db, Tx } from '../db/client.ts'
import { mailOutbox } from '../db/schema/index.ts'

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
 * commits. Delivery happens afterwards (see the mail delivery worker) and never fails the write.
 */
export async function enqueueMail(db: Db | Tx, mail: OutgoingMail): Promise<string> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind: mail.kind,
      toAddress: mail.to,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html,
    })
    .returning({ id: mailOutbox.id })
  return row!.id
}
