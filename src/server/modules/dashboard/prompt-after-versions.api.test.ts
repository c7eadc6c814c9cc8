import { randomUUID } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ImportResult } from '../../../domain/prompt-transfer.ts'
import type { Tx } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'
import { TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { promptFiguresDrift } from './test-fixtures.ts'

/**
 * A new prompt is written after its versions (decision 0271): the versions' triggers find no
 * prompt and count nothing, and the prompt's insert counts them instead. Whichever comes first,
 * the kept figures (migration 0264), dashboard counts (0257, 0259) and days (0268) must equal a
 * count of the rows; and the versions' foreign key, deferred for that pair of statements only,
 * still refuses a version of no prompt.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const db = () => testApp.database.db

function user(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

const drift = () => promptFiguresDrift(db())

/** The kept dashboard counts and days, each added up per key, as two lists in one order. */
async function kept() {
  return {
    counts: await queryRows(
      db(),
      sql`SELECT user_id, space_id, sum(prompts)::int AS prompts, sum(versions)::int AS versions
        FROM dashboard_counts GROUP BY 1, 2 HAVING sum(prompts) <> 0 OR sum(versions) <> 0 ORDER BY 1, 2`,
    ),
    days: await queryRows(
      db(),
      sql`SELECT space_id, user_id, to_char(day, 'YYYY-MM-DD') AS day, sum(prompts)::int AS prompts,
          sum(versions)::int AS versions, sum(revisions)::int AS revisions
        FROM dashboard_days GROUP BY 1, 2, 3
        HAVING sum(prompts) <> 0 OR sum(versions) <> 0 OR sum(revisions) <> 0
        ORDER BY 1, 2 NULLS FIRST, 3`,
    ),
  }
}

/** The figures, counts and days kept equal those made again from the rows. */
async function expectKeptMatchesTheRows() {
  expect(await drift()).toEqual([])
  const before = await kept()
  await db().execute(sql`SELECT dashboard_counts_recount()`)
  await db().execute(sql`SELECT dashboard_days_recount()`)
  expect(before).toEqual(await kept())
}

async function figuresOf(name: string) {
  const [row] = await queryRows<{ version_count: number; current_behind: boolean; current_body: string }>(
    db(),
    sql`SELECT version_count, current_behind, current_body FROM prompts WHERE name = ${name}`,
  )
  return row
}

describe('a prompt written after its versions', () => {
  it('through the import: counts its versions, knows an older current version and copies its body', async () => {
    const admin = await user()
    const member = await user()
    const teamId = (await createTeamAs(admin, 'Importers')).id
    await addMember(testApp, admin, teamId, member)
    const document = {
      prompts: [
        {
          name: 'behind',
          title: 'Current is the first',
          tags: [],
          versions: [{ body: 'first', labels: ['production'] }, { body: 'second' }, { body: 'third' }],
        },
        { name: 'newest', title: 'Current is the last', tags: [], versions: [{ body: 'only' }] },
      ],
    }
    for (const dryRun of [true, false]) {
      const res = await member.post<ImportResult>('/api/v1/prompts/import', { document, teamId, dryRun })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.created).toBe(2)
    }
    expect(await figuresOf('behind')).toEqual({
      version_count: 3,
      current_behind: true,
      current_body: 'first',
    })
    expect(await figuresOf('newest')).toEqual({
      version_count: 1,
      current_behind: false,
      current_body: 'only',
    })
    await expectKeptMatchesTheRows()
  })

  it('in SQL, either order: the same figures, counts and days as the rows say', async () => {
    const owner = await user()
    const writer = await user()
    const teamId = (await createTeamAs(owner, 'Either order')).id
    await addMember(testApp, owner, teamId, writer)
    const ownerId = owner.user!.id
    const writerId = writer.user!.id
    for (const order of ['prompt first', 'versions first'] as const) {
      const promptId = randomUUID()
      const current = randomUUID()
      await db().transaction(async (tx) => {
        const prompt = () =>
          tx.execute(sql`INSERT INTO prompts (id, owner_user_id, name, title, visibility, team_id, current_version_id)
            VALUES (${promptId}, ${ownerId}, ${order}, ${order}, 'team', ${teamId}, ${order === 'versions first' ? current : null})`)
        // Three versions: the owner's, another member's (the current one), and one no person wrote.
        const versions = () =>
          tx.execute(sql`INSERT INTO prompt_versions (id, prompt_id, version_number, body, created_by_user_id)
            VALUES (gen_random_uuid(), ${promptId}, 1, 'one', ${ownerId}),
              (${current}, ${promptId}, 2, 'two', ${writerId}),
              (gen_random_uuid(), ${promptId}, 3, 'three', NULL)`)
        if (order === 'prompt first') {
          await prompt()
          await versions()
          await tx.execute(sql`UPDATE prompts SET current_version_id = ${current} WHERE id = ${promptId}`)
        } else {
          await tx.execute(sql`SET CONSTRAINTS prompt_versions_prompt_id_fkey DEFERRED`)
          await versions()
          await prompt()
          await tx.execute(sql`SET CONSTRAINTS prompt_versions_prompt_id_fkey IMMEDIATE`)
        }
      })
      expect(await figuresOf(order)).toEqual({ version_count: 3, current_behind: true, current_body: 'two' })
      await expectKeptMatchesTheRows()
    }
    // Both orders kept the same: each prompt's team counts one prompt for its owner and a version
    // for each writer (the owner for the version no person wrote, as the team's totals do).
    const counts = await queryRows<{ user_id: string; prompts: number; versions: number }>(
      db(),
      sql`SELECT user_id, sum(prompts)::int AS prompts, sum(versions)::int AS versions FROM dashboard_counts
        WHERE space_id = ${teamId} GROUP BY 1 ORDER BY 1`,
    )
    expect(Object.fromEntries(counts.map((row) => [row.user_id, [row.prompts, row.versions]]))).toEqual({
      [ownerId]: [2, 4],
      [writerId]: [0, 2],
    })
  })

  it('still refuses a version of no prompt: at once, or when its deferred check is made', async () => {
    const owner = await user()
    const orphan = (tx: Tx) =>
      tx.execute(sql`INSERT INTO prompt_versions (prompt_id, version_number, body, created_by_user_id)
        VALUES (${randomUUID()}, 1, 'nobody''s', ${owner.user!.id})`)
    const codeOf = (error: unknown) => {
      for (let at = error; at instanceof Error; at = at.cause) {
        const code = (at as { code?: unknown }).code
        if (typeof code === 'string') return code
      }
      return undefined
    }
    const attempts = {
      immediate: (tx: Tx) => orphan(tx),
      deferred: async (tx: Tx) => {
        await tx.execute(sql`SET CONSTRAINTS prompt_versions_prompt_id_fkey DEFERRED`)
        await orphan(tx)
        await tx.execute(sql`SET CONSTRAINTS prompt_versions_prompt_id_fkey IMMEDIATE`)
      },
      'deferred to the commit': async (tx: Tx) => {
        await tx.execute(sql`SET CONSTRAINTS prompt_versions_prompt_id_fkey DEFERRED`)
        await orphan(tx)
      },
    }
    for (const [how, attempt] of Object.entries(attempts)) {
      const error = await db()
        .transaction(attempt)
        .then(() => undefined)
        .catch((caught: unknown) => caught)
      expect(codeOf(error), how).toBe('23503')
    }
    const [left] = await queryRows<{ n: number }>(
      db(),
      sql`SELECT count(*)::int AS n FROM prompt_versions WHERE body = 'nobody''s'`,
    )
    expect(left!.n).toBe(0)
  })
})
