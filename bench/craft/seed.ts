import pg from 'pg'
import { signUpAccounts } from '../lib/accounts.ts'
import { ensureBenchDatabase } from '../lib/database.ts'

/**
 * The craft benchmark's data, written by SQL alone (generate_series, no rows through
 * Node): one user with SEARCH_PROMPTS prompts of VERSIONS_PER_PROMPT versions each (1M versions by
 * default) for body search, one with TRANSFER_PROMPTS prompts to export, one to import into.
 */
export const CRAFT_DATABASE_URL =
  process.env.BENCH_CRAFT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_craft'
export const CRAFT_PASSWORD = 'bench password that is long enough'
export const craftEmails = {
  search: 'craft-search@bench.test',
  exporter: 'craft-export@bench.test',
  importer: 'craft-import@bench.test',
}

export const craftSize = {
  searchPrompts: Number(process.env.BENCH_CRAFT_PROMPTS ?? 100_000),
  versionsPerPrompt: Number(process.env.BENCH_CRAFT_VERSIONS_PER_PROMPT ?? 10),
  transferPrompts: Number(process.env.BENCH_CRAFT_TRANSFER_PROMPTS ?? 10_000),
}

/** Words the search looks for: in 1 version of 1000, 1 of 100, and none (a part of a word only). */
export const RARE_WORD = 'zanzibar'
export const MEDIUM_WORD = 'quokka'

const sentences = [
  'You are an experienced editor who writes clearly and concisely.',
  'Read the following ticket carefully before answering.',
  'Keep the answer under 120 words and avoid jargon.',
  'Use a friendly tone that suits {{audience}}.',
  'List the three most important points first, then the details.',
  'If something is unclear, ask one clarifying question instead of guessing.',
  'Format the result as Markdown with headings and short paragraphs.',
  'Point out risks, open questions and next steps at the end.',
  'Quote the original wording where precision matters.',
  'Do not invent facts; say so when the input does not contain the answer.',
  'Write in {{language}} and keep product names unchanged.',
  'End with a one-sentence summary that the reader can act on.',
  'Check the result for spelling and grammar before returning it.',
  'Return valid JSON with the keys "summary", "actions" and "owners".',
]

/** A body of four sentences picked by hashing `seed` (an SQL text expression), plus the rare words. */
function bodySql(seed: string): string {
  const pick = (salt: string) =>
    `(ARRAY[${sentences.map((s) => `'${s.replaceAll("'", "''")}'`).join(',')}])[1 + abs(hashtext(${seed} || '${salt}')) % ${sentences.length}]`
  return `${pick('a')} || ' ' || ${pick('b')} || ' ' || ${pick('c')} || ' ' || ${pick('d')}
    || CASE WHEN abs(hashtext(${seed} || 'r')) % 1000 = 0 THEN ' Mention ${RARE_WORD} once.' ELSE '' END
    || CASE WHEN abs(hashtext(${seed} || 'm')) % 100 = 0 THEN ' The ${MEDIUM_WORD} rule applies.' ELSE '' END`
}

async function seedPrompts(
  client: pg.Client,
  owner: string,
  prefix: string,
  prompts: number,
  versions: number,
  withReferences: boolean,
) {
  await client.query(
    `INSERT INTO prompts (owner_user_id, title, name, description, tags, visibility, created_at, updated_at)
     SELECT $1, 'Prompt ' || g || ' for ' || (ARRAY['support','sales','legal','hiring'])[1 + g % 4],
            $2 || g, CASE WHEN g % 3 = 0 THEN 'Helps with case ' || g END, ARRAY['bench'], 'private',
            now() - g * interval '1 minute', now() - g * interval '1 second'
     FROM generate_series(1, $3::integer) AS g`,
    [owner, prefix, prompts],
  )
  const reference = withReferences
    ? `|| CASE WHEN p.name <> '${prefix}1' AND abs(hashtext(p.name)) % 10 = 0
         THEN ' @@@langfusePrompt:name=${prefix}1|label=production@@@' ELSE '' END`
    : ''
  await client.query(
    `INSERT INTO prompt_versions (prompt_id, version_number, body, changelog, created_by_user_id, created_at)
     SELECT p.id, v, ${bodySql(`p.name || ':' || v`)} ${reference}, 'Version ' || v, $1,
            p.created_at + v * interval '1 second'
     FROM prompts p CROSS JOIN generate_series(1, $2::integer) AS v
     WHERE p.owner_user_id = $1`,
    [owner, versions],
  )
  await client.query(
    `UPDATE prompts p SET current_version_id = v.id FROM prompt_versions v
     WHERE p.owner_user_id = $1 AND v.prompt_id = p.id AND v.version_number = $2`,
    [owner, versions],
  )
  if (withReferences) {
    await client.query(
      `INSERT INTO prompt_dependencies (version_id, prompt_id, name)
       SELECT v.id, v.prompt_id, $2 || '1' FROM prompt_versions v JOIN prompts p ON p.id = v.prompt_id
       WHERE p.owner_user_id = $1 AND v.body LIKE '%@@@langfusePrompt:%'`,
      [owner, prefix],
    )
  }
}

/** Fills the database unless it holds this much already (BENCH_FRESH=1 starts over). */
export async function seedCraft(): Promise<Record<keyof typeof craftEmails, string>> {
  await ensureBenchDatabase(process.env.BENCH_FRESH === '1', CRAFT_DATABASE_URL)
  const client = new pg.Client({ connectionString: CRAFT_DATABASE_URL })
  await client.connect()
  try {
    const existing = await client
      .query<{ id: string; email: string }>('SELECT id, email FROM users WHERE email = ANY($1)', [
        Object.values(craftEmails),
      ])
      .then((result) => result.rows)
      .catch(() => [])
    if (existing.length === 3) {
      console.log('seed: craft data already there (BENCH_FRESH=1 starts over)')
      const idOf = (email: string) => existing.find((row) => row.email === email)!.id
      return {
        search: idOf(craftEmails.search),
        exporter: idOf(craftEmails.exporter),
        importer: idOf(craftEmails.importer),
      }
    }
    const started = performance.now()
    const [search, exporter, importer] = await signUpAccounts(
      CRAFT_DATABASE_URL,
      Object.values(craftEmails),
      CRAFT_PASSWORD,
    )
    // The bodies' two search indexes are built once after the rows, not kept up row by row.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
       WHERE tablename = 'prompt_versions' AND indexname LIKE 'prompt_versions_body_%'`,
    )
    for (const index of indexes) await client.query(`DROP INDEX ${index.name}`)
    const total = craftSize.searchPrompts * craftSize.versionsPerPrompt
    console.log(`seed: ${craftSize.searchPrompts} prompts with ${total} versions…`)
    await seedPrompts(client, search!, 'search-', craftSize.searchPrompts, craftSize.versionsPerPrompt, false)
    console.log(`seed: ${craftSize.transferPrompts} prompts to export…`)
    await seedPrompts(client, exporter!, 'transfer-', craftSize.transferPrompts, 3, true)
    const rowsAt = performance.now()
    await client.query(`SET maintenance_work_mem = '512MB'`)
    for (const index of indexes) await client.query(index.definition)
    await client.query('ANALYZE')
    console.log(
      `seed: rows in ${((rowsAt - started) / 1000).toFixed(1)} s, indexes in ${((performance.now() - rowsAt) / 1000).toFixed(1)} s`,
    )
    return { search: search!, exporter: exporter!, importer: importer! }
  } finally {
    await client.end()
  }
}
