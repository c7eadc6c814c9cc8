import type { CreatePromptInput, PromptDetail } from '../../../domain/prompts.ts'
import { teamMembers, teams } from '../../db/schema/index.ts'
import type { TestClient } from '../../testing/client.ts'
import type { TestApp } from '../../testing/test-app.ts'

/** Creates a prompt through the API as `client` and returns its detail answer. */
export async function createPromptAs(
  client: TestClient,
  input: Partial<CreatePromptInput> = {},
): Promise<PromptDetail> {
  const res = await client.post<PromptDetail>('/api/v1/prompts', {
    title: 'A prompt',
    body: 'Say hello to {name}.',
    ...input,
  })
  if (res.status !== 201)
    throw new Error(`creating a prompt failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/**
 * A team with the given members, written straight into the database: team management is another
 * module's job, these tests only need the membership.
 */
export async function createTeam(
  testApp: TestApp,
  name: string,
  members: { userId: string; role?: 'admin' | 'member' }[],
): Promise<string> {
  const db = testApp.database.db
  const [team] = await db.insert(teams).values({ name, createdByUserId: members[0]?.userId }).returning()
  if (members.length > 0) {
    await db
      .insert(teamMembers)
      .values(
        members.map((member) => ({ teamId: team!.id, userId: member.userId, role: member.role ?? 'member' })),
      )
  }
  return team!.id
}
