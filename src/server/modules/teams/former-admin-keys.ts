import { and, asc, eq, isNull, ne } from 'drizzle-orm'
import type { Locale, MessageKey } from '../../../domain/messages/index.ts'
import type { Tx } from '../../db/client.ts'
import { apiKeys, teamMembers, teams, users } from '../../db/schema/index.ts'
import { enqueueMail } from '../../mail/outbox.ts'
import { recipientLocale } from '../../mail/recipient-locale.ts'
import { renderMail } from '../../mail/render.ts'

/** Where the review notice links to, and the language of the request that caused it. */
export interface KeysNotice {
  appUrl: string
  locale: Locale
}

/**
 * Team keys belong to the team (decision 0242): when the admin who created some stops being one
 * (removed, demoted, gone, account deleted), the keys keep serving the team, and since that person
 * may still hold their secrets, every remaining admin is mailed the list to review (and revoke).
 * Call it in the transaction that ends the admin role, after the change; it reads the admins left.
 */
export async function queueKeysToReview(
  tx: Tx,
  notice: KeysNotice,
  teamId: string,
  formerAdminId: string,
): Promise<void> {
  const { appUrl, locale: requestLocale } = notice
  const keys = await tx
    .select({ name: apiKeys.name, publicKey: apiKeys.publicKey })
    .from(apiKeys)
    .where(
      and(eq(apiKeys.teamId, teamId), eq(apiKeys.createdByUserId, formerAdminId), isNull(apiKeys.revokedAt)),
    )
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id))
  if (keys.length === 0) return
  const [team] = await tx.select({ name: teams.name }).from(teams).where(eq(teams.id, teamId))
  const [former] = await tx.select({ email: users.email }).from(users).where(eq(users.id, formerAdminId))
  const admins = await tx
    .select({ email: users.email })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.userId))
    .where(
      and(
        eq(teamMembers.teamId, teamId),
        eq(teamMembers.role, 'admin'),
        ne(teamMembers.userId, formerAdminId),
      ),
    )
  for (const admin of admins) {
    const rendered = renderMail({
      locale: await recipientLocale(tx, admin.email, requestLocale),
      subject: 'teams.mail.keysSubject',
      intro: [['teams.mail.keysBody']],
      details: [
        ['teams.mail.detailTeam', team?.name ?? ''],
        ['teams.mail.detailFormerAdmin', former?.email ?? ''],
        ...keys.map((key): [MessageKey, string] => ['teams.mail.detailKey', `${key.publicKey} ${key.name}`]),
      ],
      action: { label: 'teams.mail.keysAction', url: new URL('/settings/api', appUrl).toString() },
      appUrl,
    })
    await enqueueMail(tx, { kind: 'team_keys_to_review', to: admin.email, ...rendered })
  }
}
