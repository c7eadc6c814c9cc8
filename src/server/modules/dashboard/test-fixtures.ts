import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'
import type { TestClient } from '../../testing/client.ts'
import { interleaved } from '../../testing/interleaved.ts'
import { createTeamAs } from '../../testing/teams.ts'
import type { TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/**
 * Every prompt whose kept figures (migration 0264: its version count, and whether a version newer
 * than its current one exists) differ from what counting its versions says: none, always.
 */
export function promptFiguresDrift(db: Db): Promise<{ id: string }[]> {
  return queryRows<{ id: string }>(
    db,
    sql`SELECT p.id FROM prompts p
      WHERE p.version_count <> (SELECT count(*) FROM prompt_versions v WHERE v.prompt_id = p.id)
         OR p.current_behind <> coalesce((
              SELECT EXISTS (SELECT 1 FROM prompt_versions w
                WHERE w.prompt_id = p.id AND w.version_number > cv.version_number)
              FROM prompt_versions cv WHERE cv.id = p.current_version_id), false)`,
  )
}

/**
 * A prompt of `me`'s moved into a new team while a version of it is written and not yet committed,
 * then out again while another is written: `check(teamId, 'in' | 'out')` runs after each. A
 * version's insert updates its prompt's version count (migration 0264), so the two wait for each
 * other; without that row lock the move missed the uncommitted version and the kept figures drifted
 * (the tests using this failed with that trigger dropped). PostgreSQL only: two transactions at once.
 */
export async function moveWhileAVersionIsWritten(
  testApp: TestApp,
  me: TestClient,
  check: (teamId: string, moved: 'in' | 'out') => Promise<void>,
): Promise<void> {
  const teamId = (await createTeamAs(me, 'Race')).id
  const prompt = await createPromptAs(me, { title: 'Raced' })
  const write = (version: number) =>
    sql`INSERT INTO prompt_versions (prompt_id, version_number, body, created_by_user_id)
      VALUES (${prompt.id}, ${version}, ${`body ${version}`}, ${me.user!.id})`
  const move = (into: string | null) =>
    sql`UPDATE prompts SET visibility = ${into ? 'team' : 'private'}, team_id = ${into} WHERE id = ${prompt.id}`
  await interleaved(testApp.database.db, write(2), move(teamId))
  await check(teamId, 'in')
  await interleaved(testApp.database.db, move(null), write(3))
  await check(teamId, 'out')
}
