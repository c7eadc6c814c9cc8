import { sql } from 'drizzle-orm'
import type { Locale, MessageKey } from '../../domain/messages/index.ts'
import type { Tx } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'
import { enqueueMail } from '../mail/outbox.ts'
import { recipientLocale } from '../mail/recipient-locale.ts'
import { renderMail } from '../mail/render.ts'

/** A new API key or webhook endpoint: what its notice names. */
export interface AccessCreated {
  kind: 'api_key' | 'webhook'
  /** The key's name or the endpoint's URL. */
  label: string
  teamId: string | null
  /** Who created it (a personal one belongs to them). */
  actor: { id: string; email: string; locale: Locale }
}

const texts = {
  api_key: {
    subject: 'mail.access.keySubject',
    personal: 'mail.access.keyPersonal',
    team: 'mail.access.keyTeam',
    label: 'mail.access.detailKey',
    action: 'mail.access.keyAction',
    path: '/settings/api',
  },
  webhook: {
    subject: 'mail.access.webhookSubject',
    personal: 'mail.access.webhookPersonal',
    team: 'mail.access.webhookTeam',
    label: 'mail.access.detailWebhook',
    action: 'mail.access.webhookAction',
    path: '/settings/webhooks',
  },
} as const satisfies Record<AccessCreated['kind'], Record<string, MessageKey | string>>

/**
 * Queues, in the creating transaction, a notice of a new key or endpoint: to its owner for a
 * personal one, to every admin of the team (the creator among them) for a team's, so that one made
 * with a stolen session does not go unseen. Each in the recipient's language.
 */
export async function mailAccessCreated(tx: Tx, appUrl: string, created: AccessCreated): Promise<void> {
  const text = texts[created.kind]
  const recipients = created.teamId
    ? await queryRows<{ email: string; team: string }>(
        tx,
        sql`SELECT u.email, t.name AS team FROM team_members m
            JOIN users u ON u.id = m.user_id JOIN teams t ON t.id = m.team_id
            WHERE m.team_id = ${created.teamId} AND m.role = 'admin' AND u.deleted_at IS NULL`,
      )
    : [{ email: created.actor.email, team: null }]
  for (const { email, team } of recipients) {
    const rendered = renderMail({
      locale: await recipientLocale(tx, email, created.actor.locale),
      subject: text.subject,
      intro: [[team === null ? text.personal : text.team]],
      details: [
        [text.label, created.label],
        ...(team === null ? [] : [['mail.access.detailTeam', team] as [MessageKey, string]]),
        ['mail.access.detailBy', created.actor.email],
      ],
      action: { label: text.action, url: new URL(text.path, appUrl).toString() },
      outro: [['mail.access.ifNotYou']],
      appUrl,
    })
    await enqueueMail(tx, { kind: `${created.kind}_created`, to: email, ...rendered })
  }
}
