import { defaultLocale, type Locale } from '../../domain/messages/index.ts'
import { isSafeNextPath } from '../../domain/next-path.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { recipientLocale } from '../mail/recipient-locale.ts'
import { renderMail } from '../mail/render.ts'
import { mailKeyOf } from '../mail/sealing.ts'

/**
 * The code mail's link: APP_URL's code page at the code step for this address, carrying on to
 * `next` after signing in when that is a path on this site (anything else is left out). The code
 * itself stays out of the link, where browser histories and mail scanners would keep it.
 */
export function loginCodeLink(appUrl: string, email: string, next: string | undefined): string {
  const url = new URL('/login', appUrl)
  url.searchParams.set('email', email)
  url.searchParams.set('step', 'code')
  if (isSafeNextPath(next)) url.searchParams.set('next', next)
  return url.toString()
}

/** The sign-in code mail, in the account's language (or the requester's for a new address). */
export async function queueLoginCodeMail(
  db: Db,
  config: Pick<Config, 'appUrl' | 'authSecret'>,
  mail: { to: string; code: string; requestLocale: Locale; next?: string },
) {
  const locale = await recipientLocale(db, mail.to, mail.requestLocale)
  const rendered = renderMail({
    locale,
    subject: 'mail.code.subject',
    intro: [['mail.code.intro']],
    code: mail.code,
    action: { label: 'mail.code.action', url: loginCodeLink(config.appUrl, mail.to, mail.next) },
    outro: [['mail.code.validity'], ['mail.code.ignore']],
    appUrl: config.appUrl,
  })
  await enqueueMail(db, {
    kind: 'login_code',
    to: mail.to,
    ...rendered,
    secrets: [mail.code],
    key: mailKeyOf(config),
  })
}

/**
 * The reset link: always APP_URL + /auth/confirm (never the request's Host), with the token, the
 * recovery type, where to go next, and the new-tab flag when the request came from inside a frame.
 */
export function passwordResetLink(appUrl: string, token: string, newTab: boolean): string {
  const url = new URL('/auth/confirm', appUrl)
  url.searchParams.set('token_hash', token)
  url.searchParams.set('type', 'recovery')
  url.searchParams.set('next', '/reset-password')
  if (newTab) url.searchParams.set('new_tab', 'true')
  return url.toString()
}

export async function queuePasswordResetMail(
  db: Db,
  config: Pick<Config, 'appUrl' | 'authSecret'>,
  mail: { to: string; token: string; newTab: boolean },
) {
  const locale = await recipientLocale(db, mail.to, defaultLocale)
  const rendered = renderMail({
    locale,
    subject: 'mail.reset.subject',
    intro: [['mail.reset.intro']],
    action: { label: 'mail.reset.action', url: passwordResetLink(config.appUrl, mail.token, mail.newTab) },
    outro: [['mail.reset.validity'], ['mail.reset.ignore']],
    appUrl: config.appUrl,
  })
  await enqueueMail(db, {
    kind: 'password_reset',
    to: mail.to,
    ...rendered,
    secrets: [mail.token],
    key: mailKeyOf(config),
  })
}
