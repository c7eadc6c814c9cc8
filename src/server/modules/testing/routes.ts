import { inArray } from 'drizzle-orm'
import { Hono } from 'hono'
import { z } from 'zod'
import { emailSchema } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { teamRoles } from '../../../domain/team-permissions.ts'
import type { Db } from '../../db/client.ts'
import { teamMembers, teams, users } from '../../db/schema/index.ts'
import type { AppEnv } from '../../http/env.ts'
import { jsonBody } from '../../http/input.ts'

const seedTeamInput = z.object({
  name: z.string().trim().min(1).max(100),
  members: z.array(z.object({ email: emailSchema, role: z.enum(teamRoles).default('member') })).min(1),
})

/**
 * Seeding for the end-to-end tests, which cannot reach the server's embedded database. Mounted only
 * when NODE_ENV=test (see app.ts), never in development or production. `POST /teams` makes a team
 * of existing accounts, so a test can look at shared work without driving team management.
 */
export function testingRoutes(deps: { db: Db }) {
  return new Hono<AppEnv>().post('/teams', async (c) => {
    const input = await jsonBody(c, seedTeamInput)
    const teamId = await deps.db.transaction(async (tx) => {
      const emails = input.members.map((member) => member.email)
      const found = await tx
        .select({ id: users.id, email: users.email })
        .from(users)
        .where(inArray(users.email, emails))
      if (found.length !== new Set(emails).size) throw new AppError('not_found')
      const idOf = new Map(found.map((user) => [user.email, user.id]))
      const [team] = await tx.insert(teams).values({ name: input.name }).returning({ id: teams.id })
      await tx.insert(teamMembers).values(
        input.members.map((member) => ({
          teamId: team!.id,
          userId: idOf.get(member.email)!,
          role: member.role,
        })),
      )
      return team!.id
    })
    return c.json({ id: teamId }, 201)
  })
}
