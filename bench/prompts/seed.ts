import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { signUpAccounts } from '../lib/accounts.ts'
import { BENCH_DATABASE_URL, ensureBenchDatabase } from '../lib/database.ts'
import * as data from './data.ts'

export const BENCH_PASSWORD = 'bench password that is long enough'
export const benchEmail = (index: number) => `bench-user-${index}@bench.test`

export interface SeedSize {
  users: number
  prompts: number
  versions: number
}

export const seedSize: SeedSize = {
  users: Number(process.env.BENCH_USERS ?? 200),
  prompts: Number(process.env.BENCH_PROMPTS ?? 100_000),
  versions: Number(process.env.BENCH_VERSIONS ?? 1_000_000),
}

const TEAM_SIZE = 10
const TEAM_SHARE = 0.3
const BATCH = 5000

/** Array literal for a text[] cell passed through unnest (tags never contain quotes or braces). */
const textArray = (values: string[]) => `{${values.map((value) => `"${value}"`).join(',')}}`

/**
 * Fills the benchmark database: `users` accounts (signed up through the app, so their passwords
 * work), teams of 10 where everyone belongs to two teams, `prompts` prompts (30% shared with a
 * team) and about `versions` versions, each prompt's newest version current. Skips the work when
 * the database already holds this much.
 */
export async function seed(
  size: SeedSize = seedSize,
  options: { fresh?: boolean; url?: string } = {},
): Promise<void> {
  const url = options.url ?? BENCH_DATABASE_URL
  await ensureBenchDatabase(options.fresh ?? process.env.BENCH_FRESH === '1', url)
  const pool = new pg.Pool({ connectionString: url, max: 4 })
  try {
    const existing = await pool
      .query<{ n: number }>('SELECT count(*)::int AS n FROM prompts')
      .then((result) => result.rows[0]!.n)
      .catch(() => 0)
    if (existing >= size.prompts) {
      console.log(`seed: ${existing} prompts already there, nothing to do (BENCH_FRESH=1 starts over)`)
      return
    }
    if (existing > 0) throw new Error('seed: a partly seeded database; run with BENCH_FRESH=1')
    const started = performance.now()
    const rand = data.random(20261121)

    console.log(`seed: signing up ${size.users} users…`)
    const userIds = await signUpAccounts(
      url,
      Array.from({ length: size.users }, (_, i) => benchEmail(i)),
      BENCH_PASSWORD,
    )

    const teamCount = Math.max(1, Math.ceil(size.users / TEAM_SIZE))
    const teamIds = Array.from({ length: teamCount }, () => randomUUID())
    await pool.query(
      `INSERT INTO teams (id, name, created_by_user_id)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[])`,
      [teamIds, teamIds.map((_, t) => `Bench team ${t + 1}`), teamIds.map((_, t) => userIds[t * TEAM_SIZE]!)],
    )
    // Everyone is in their own team and, as a member, in the next one.
    const teamsOf = userIds.map((_, u) => {
      const own = Math.floor(u / TEAM_SIZE)
      return teamCount > 1 ? [teamIds[own]!, teamIds[(own + 1) % teamCount]!] : [teamIds[own]!]
    })
    const memberRows = userIds.flatMap((id, u) =>
      teamsOf[u]!.map((teamId, i) => [teamId, id, i === 0 && u % TEAM_SIZE === 0 ? 'admin' : 'member']),
    )
    await pool.query(
      `INSERT INTO team_members (team_id, user_id, role) SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[])`,
      [memberRows.map((r) => r[0]), memberRows.map((r) => r[1]), memberRows.map((r) => r[2])],
    )

    console.log(`seed: ${size.prompts} prompts with ~${size.versions} versions…`)
    const versionsPerPrompt = size.versions / size.prompts
    const now = Date.now()
    const year = 365 * 24 * 3600 * 1000
    let promptBatch: unknown[][] = []
    let versionBatch: unknown[][] = []
    let versionTotal = 0

    const flushPrompts = async () => {
      if (promptBatch.length === 0) return
      const column = (i: number) => promptBatch.map((row) => row[i])
      await pool.query(
        `INSERT INTO prompts (id, owner_user_id, team_id, title, name, description, tags, visibility, created_at, updated_at)
         SELECT id, owner, team, title, 'prompt-' || id, description, tags::text[], visibility, created, updated
         FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::timestamptz[], $9::timestamptz[])
           AS t(id, owner, team, title, description, tags, visibility, created, updated)`,
        [0, 1, 2, 3, 4, 5, 6, 7, 8].map(column),
      )
      promptBatch = []
    }
    const flushVersions = async () => {
      if (versionBatch.length === 0) return
      const column = (i: number) => versionBatch.map((row) => row[i])
      await pool.query(
        `INSERT INTO prompt_versions (prompt_id, version_number, body, changelog, created_by_user_id, created_at)
         SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::text[], $6::timestamptz[])`,
        [0, 1, 2, 3, 4, 5].map(column),
      )
      versionBatch = []
    }

    for (let p = 0; p < size.prompts; p++) {
      const owner = p % userIds.length
      const shared = rand() < TEAM_SHARE
      const created = now - rand() * year
      const updated = created + rand() * (now - created)
      const id = randomUUID()
      promptBatch.push([
        id,
        userIds[owner],
        shared ? data.pick(rand, teamsOf[owner]!) : null,
        data.title(rand),
        data.description(rand),
        textArray(data.tags(rand)),
        shared ? 'team' : 'private',
        new Date(created).toISOString(),
        new Date(updated).toISOString(),
      ])
      // Between 1 and 2 × average - 1 versions, spread from creation to the last update.
      const count = 1 + Math.floor(rand() * (2 * versionsPerPrompt - 1))
      for (let v = 1; v <= count; v++) {
        const at = created + ((updated - created) * (v - 1)) / Math.max(1, count - 1)
        versionBatch.push([
          id,
          v,
          data.body(rand),
          v === 1 ? 'Initial version' : data.pick(rand, data.changelogs),
          userIds[owner],
          new Date(at).toISOString(),
        ])
      }
      versionTotal += count
      if (promptBatch.length >= BATCH / 5) await flushPrompts()
      if (versionBatch.length >= BATCH) {
        await flushPrompts()
        await flushVersions()
      }
      if ((p + 1) % 10_000 === 0) console.log(`seed: ${p + 1} prompts, ${versionTotal} versions`)
    }
    await flushPrompts()
    await flushVersions()

    console.log('seed: setting current versions and analyzing…')
    await pool.query(
      `UPDATE prompts p SET current_version_id = v.id
       FROM (SELECT DISTINCT ON (prompt_id) id, prompt_id FROM prompt_versions
             ORDER BY prompt_id, version_number DESC) v
       WHERE v.prompt_id = p.id`,
    )
    await pool.query('VACUUM ANALYZE')
    console.log(
      `seed: ${size.users} users, ${teamCount} teams, ${size.prompts} prompts, ${versionTotal} versions in ${Math.round((performance.now() - started) / 1000)} s`,
    )
  } finally {
    await pool.end()
  }
}
