import { INVITATION_VALID_DAYS } from '../../../domain/constants.ts'
import { type Locale, type MessageKey, translate } from '../../../domain/messages/index.ts'
import type { TeamRole } from '../../../domain/team-permissions.ts'
import type { OutgoingMail } from '../../mail/outbox.ts'

export interface InvitationMailInput {
  locale: Locale
  to: string
  teamName: string
  inviterEmail: string
  role: TeamRole
  /** The accept link, built from APP_URL (never from the request's Host header). */
  acceptUrl: string
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  )

/** The invitation mail in the invitee's language, as plain text and HTML. */
export function invitationMail(input: InvitationMailInput): OutgoingMail {
  const params = {
    inviter: input.inviterEmail,
    team: input.teamName,
    role: translate(input.locale, `teams.role.${input.role}` as MessageKey),
    email: input.to,
    days: INVITATION_VALID_DAYS,
  }
  const t = (key: MessageKey) => translate(input.locale, key, params)
  const text = [
    t('teams.mail.greeting'),
    '',
    t('teams.mail.body'),
    '',
    t('teams.mail.linkIntro'),
    input.acceptUrl,
    '',
    t('teams.mail.accountHint'),
    '',
    t('teams.mail.ignore'),
  ].join('\n')
  const url = escapeHtml(input.acceptUrl)
  const html = `<!doctype html>
<html lang="${input.locale}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1f2937">
<p>${escapeHtml(t('teams.mail.greeting'))}</p>
<p>${escapeHtml(t('teams.mail.body'))}</p>
<p><a href="${url}" style="display:inline-block;padding:10px 18px;background:#4f46e5;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(t('teams.mail.action'))}</a></p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(t('teams.mail.linkIntro'))}<br><a href="${url}">${url}</a></p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(t('teams.mail.accountHint'))}</p>
<p style="font-size:13px;color:#6b7280">${escapeHtml(t('teams.mail.ignore'))}</p>
</body></html>`
  return { kind: 'team_invitation', to: input.to, subject: t('teams.mail.subject'), text, html }
}
