import { INVITATION_VALID_DAYS } from '../../../domain/constants.ts'
import { type Locale, translate } from '../../../domain/messages/index.ts'
import type { TeamRole } from '../../../domain/permissions.ts'
import type { Tx } from '../../db/client.ts'
import { enqueueMail } from '../../mail/outbox.ts'
import { recipientLocale } from '../../mail/recipient-locale.ts'
import { renderMail } from '../../mail/render.ts'
import type { MailKey } from '../../mail/sealing.ts'

export interface InvitationMail {
  to: string
  teamName: string
  inviterEmail: string
  role: TeamRole
  token: string
  /** The inviter's language, used when the invitee has no account (and so no profile language). */
  requestLocale: Locale
}

/** The accept link: always APP_URL + /invite/{token}, never the request's Host. */
export function invitationLink(appUrl: string, token: string): string {
  return new URL(`/invite/${token}`, appUrl).toString()
}

/** Queues the invitation mail in the invite's transaction, in the invitee's language. */
export async function queueInvitationMail(
  tx: Tx,
  { appUrl, mailKey }: { appUrl: string; mailKey: MailKey },
  mail: InvitationMail,
) {
  const locale = await recipientLocale(tx, mail.to, mail.requestLocale)
  // The team's name (and the inviter's address) are the inviter's words, sent to any address:
  // they appear only as labelled values, never in the subject or as the mail's own text.
  const rendered = renderMail({
    locale,
    subject: 'teams.mail.subject',
    intro: [['teams.mail.body']],
    details: [
      ['teams.mail.detailTeam', mail.teamName],
      ['teams.mail.detailInviter', mail.inviterEmail],
      ['teams.mail.detailRole', translate(locale, `teams.role.${mail.role}`)],
    ],
    action: { label: 'teams.mail.action', url: invitationLink(appUrl, mail.token) },
    outro: [['teams.mail.accountHint', { email: mail.to, days: INVITATION_VALID_DAYS }]],
    footerNote: 'teams.mail.ignore',
    appUrl,
  })
  await enqueueMail(tx, {
    kind: 'team_invitation',
    to: mail.to,
    ...rendered,
    secrets: [mail.token],
    key: mailKey,
  })
}
