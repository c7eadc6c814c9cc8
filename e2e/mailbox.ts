/**
 * Reading mail in e2e tests.
 *
 * The e2e run starts a real SMTP server on 127.0.0.1 (e2e/servers/mail-catcher.ts, started by
 * playwright.config.ts before the app) and runs the app with SMTP_URL pointing at it, so every mail
 * the app sends (sign-in codes, reset links, team invitations, …) really goes out over SMTP and
 * lands there. Tests read it through this module:
 *
 *   const before = await mailCount(email)           // mails to that address so far
 *   ...do what sends the mail...
 *   const mail = await waitForMail(email, { after: before })
 *   codeOf(mail)                                     // the 6-digit code in its text
 *   linkOf(mail, '/auth/confirm')                    // the first link to that path
 *   mail.subject, mail.text, mail.html, mail.from
 *
 * Addresses are per test (uniqueEmail()), so parallel tests never read each other's mail.
 */
import { expect } from '@playwright/test'
import { codeOf, linkOf, type ReceivedMail } from '../src/server/testing/mailbox.ts'

export { codeOf, linkOf, type ReceivedMail }

const catcherUrl = () => `http://127.0.0.1:${process.env.E2E_MAIL_PORT}`

/** Every mail to `address` so far (oldest first). */
export async function mailsTo(address: string): Promise<ReceivedMail[]> {
  const res = await fetch(`${catcherUrl()}/mails?to=${encodeURIComponent(address)}`)
  if (!res.ok) throw new Error(`mail catcher answered ${res.status}`)
  return (await res.json()) as ReceivedMail[]
}

export async function mailCount(address: string): Promise<number> {
  return (await mailsTo(address)).length
}

/** Waits for the first mail to `address` after the first `after` ones, and returns it. */
export async function waitForMail(
  address: string,
  options: { after?: number; timeout?: number } = {},
): Promise<ReceivedMail> {
  const after = options.after ?? 0
  let found: ReceivedMail | undefined
  await expect
    .poll(
      async () => {
        found = (await mailsTo(address))[after]
        return found !== undefined
      },
      { message: `a mail to ${address}`, timeout: options.timeout ?? 15_000, intervals: [100, 250, 500] },
    )
    .toBe(true)
  return found!
}
