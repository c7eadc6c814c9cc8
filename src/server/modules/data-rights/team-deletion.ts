import { and, eq, ne } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type { deleteTeamInput } from '../../../domain/data-rights.ts'
import { AppError } from '../../../domain/errors.ts'
import { isLocale } from '../../../domain/messages/index.ts'
import { recordAudit } from '../../core/audit.ts'
import { authorizeTeam } from '../../core/team-access.ts'
import type { Db } from '../../db/client.ts'
import { conversations, profiles, prompts, teamMembers, teams, users } from '../../db/schema/index.ts'
import { enqueueMail } from '../../mail/outbox.ts'
import { renderMail } from '../../mail/render.ts'
import { removePrompts } from '../prompts/index.ts'

/**
 * Deletes a team (its admins, or a global admin), confirmed by its exact name, in one transaction:
 * its prompts and conversations, then the team, whose members, invitations, keys, plan and protected
 * labels go with it. Every other member is told by mail, in their language.
 */
export async function deleteTeam(
  db: Db,
  appUrl: string,
  actor: Actor,
  teamId: string,
  input: z.output<typeof deleteTeamInput>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const { team } = await authorizeTeam(tx, actor, teamId, 'manage_team', { lock: true })
    if (input.confirmName.trim() !== team.name) {
      throw new AppError('validation', 'teams.deleteConfirmMismatch', {
        fields: { confirmName: 'teams.deleteConfirmMismatch' },
      })
    }
    const others = await tx
      .select({ email: users.email, locale: profiles.preferredLocale })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .leftJoin(profiles, eq(profiles.userId, teamMembers.userId))
      .where(and(eq(teamMembers.teamId, teamId), ne(teamMembers.userId, actor.id)))
    await recordAudit(tx, actor, {
      action: 'team.deleted',
      objectType: 'team',
      objectId: teamId,
      teamId,
      before: { name: team.name, members: others.length + 1 },
    })
    await removePrompts(tx, eq(prompts.teamId, teamId))
    await tx.delete(conversations).where(eq(conversations.teamId, teamId))
    await tx.delete(teams).where(eq(teams.id, teamId))
    for (const member of others) {
      const rendered = renderMail({
        locale: isLocale(member.locale) ? member.locale : actor.locale,
        subject: 'teams.mail.deletedSubject',
        intro: [['teams.mail.deletedBody']],
        details: [
          ['teams.mail.detailTeam', team.name],
          ['teams.mail.deletedBy', actor.email],
        ],
        appUrl,
      })
      await enqueueMail(tx, { kind: 'team_deleted', to: member.email, ...rendered })
    }
  })
}
