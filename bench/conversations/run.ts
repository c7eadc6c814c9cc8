import pg from 'pg'
import { encodeCursor } from '../../src/domain/cursor.ts'
import {
  type ConnectionPlan,
  FLOOR_CONNECTIONS,
  RECORDER_CONNECTIONS,
  SERVER_CONNECTIONS,
} from '../lib/connections.ts'
import {
  CONNECTIONS,
  CPU_COLUMNS,
  cpuCells,
  FLOOR_COLUMNS,
  floorCells,
  indexesUsed,
  measureScenario,
  measureSql,
  RESULT_COLUMNS,
  resultCells,
  type Scenario,
  SECONDS,
  shareOf,
  signIn,
  unloaded,
  withBenchServer,
} from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'
import {
  BENCH_USER,
  BIG_CONVERSATION_TITLE,
  seedConversations,
  BENCH_CONVERSATIONS_DATABASE_URL as URL,
} from './seed.ts'

const MESSAGES_PER_PAGE = 50
const CONVERSATIONS_PER_PAGE = 25
const cursorAt = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`

/** The 1st and 10,000th messages page of the big conversation, the 1st and last list page. */
async function scenarios(): Promise<Scenario[]> {
  const db = new pg.Client({ connectionString: URL })
  await db.connect()
  try {
    const big = (await db.query('SELECT id FROM conversations WHERE title = $1', [BIG_CONVERSATION_TITLE]))
      .rows[0].id as string
    // The cursor that asks for page n is the key of the last row of page n - 1.
    const page10k = (
      await db.query(
        `SELECT ${cursorAt('created_at')} AS at, id FROM conversation_messages WHERE conversation_id = $1
         ORDER BY created_at, id OFFSET $2 LIMIT 1`,
        [big, 9_999 * MESSAGES_PER_PAGE - 1],
      )
    ).rows[0] as { at: string; id: string }
    const count = Number((await db.query('SELECT count(*) FROM conversations')).rows[0].count)
    const lastPage = Math.ceil(count / CONVERSATIONS_PER_PAGE)
    const listLast = (
      await db.query(
        `SELECT ${cursorAt('updated_at')} AS at, id FROM conversations
         ORDER BY updated_at DESC, id DESC OFFSET $1 LIMIT 1`,
        [(lastPage - 1) * CONVERSATIONS_PER_PAGE - 1],
      )
    ).rows[0] as { at: string; id: string }
    const cursor = (key: { at: string; id: string }) => encodeURIComponent(encodeCursor(key))
    return [
      { name: 'messages page 1', paths: [`/api/v1/conversations/${big}/messages`] },
      {
        name: 'messages page 10,000',
        paths: [`/api/v1/conversations/${big}/messages?cursor=${cursor(page10k)}`],
      },
      { name: 'conversation list page 1', paths: ['/api/v1/conversations'] },
      {
        name: `conversation list page ${lastPage}`,
        paths: [`/api/v1/conversations?cursor=${cursor(listLast)}`],
      },
    ]
  } finally {
    await db.end()
  }
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server, the SQL recorder and, while a scenario is measured,
 * its SQL replay and its two floors.
 */
export const conversationsConnections: ConnectionPlan = {
  databaseUrl: URL,
  holds: {
    'app server': SERVER_CONNECTIONS,
    'SQL recorder': RECORDER_CONNECTIONS,
    'SQL replay': CONNECTIONS,
    'bare floor': FLOOR_CONNECTIONS,
    'Hono floor': FLOOR_CONNECTIONS,
  },
}

/**
 * The conversations benchmark: 10,000 conversations with 1,000,000 messages. Each scenario through the
 * HTTP API (autocannon) and, as the limit, the SQL statements of one real request replayed from
 * direct `pg` clients: once only the page query, once every statement (a messages page is one since
 * its conversation's access and its attachments came into the page's statement; the session is kept
 * after its first request), all at CONNECTIONS connections.
 */
export async function runConversationsBenchmark(): Promise<void> {
  await seedConversations()
  await withBenchServer(URL, async ({ base, recorder, server }) => {
    const cookie = await signIn(base, BENCH_USER.email, BENCH_USER.password)
    const list = await scenarios()
    console.log(`\nconversations benchmark: ${CONNECTIONS} connections, ${SECONDS} s per measurement\n`)
    const rows: string[][] = []
    const notes: string[] = []
    const cpu: string[][] = []
    const results: Record<string, unknown>[] = []
    for (const scenario of list) {
      const all = [await recorder.statementsOf(scenario.paths[0]!, cookie)]
      const page = all[0]!.filter((s) => /ORDER BY/i.test(s.text) && /LIMIT/i.test(s.text))
      if (page.length !== 1)
        throw new Error(`${scenario.name}: expected one page query, found ${page.length}`)
      const {
        api,
        floor,
        honoFloor,
        sql: sqlAll,
      } = await measureScenario(base, cookie, scenario, URL, all, server, { floor: true })
      cpu.push(
        cpuCells(scenario.name, api),
        cpuCells(`${scenario.name}: floor`, floor!),
        cpuCells(`${scenario.name}: Hono floor`, honoFloor!),
      )
      const sqlPage = await measureSql(URL, [page], SECONDS)
      rows.push([
        ...resultCells(scenario.name, api, sqlAll),
        ...floorCells(api, floor!, honoFloor!),
        sqlPage.requestsPerSecond.toFixed(0),
        shareOf(api, sqlPage),
      ])
      const indexes = await indexesUsed(URL, page, /conversation/)
      notes.push(
        `${scenario.name}: ${all[0]!.length} statements per request; page query uses ${indexes.join(', ')}`,
      )
      results.push({
        scenario: scenario.name,
        statements: all[0]!.length,
        indexes,
        api,
        floor,
        apiOfFloor: shareOf(api, floor!),
        honoFloor,
        apiOfHonoFloor: shareOf(api, honoFloor!),
        sqlAll,
        sqlPage,
      })
      console.log(`  measured ${scenario.name}`)
    }
    const first = await unloaded(base, cookie, list[0]!.paths[0]!)
    const tenThousandth = await unloaded(base, cookie, list[1]!.paths[0]!)
    console.log(
      `\n${table([...RESULT_COLUMNS, ...FLOOR_COLUMNS, 'page query req/s', 'API/page query'], rows)}\n`,
    )
    console.log(
      'where the CPU went, per request at the API measurement and at its floors (server, local PostgreSQL, load generator):',
    )
    console.log(`${table(CPU_COLUMNS, cpu)}\n`)
    console.log(notes.join('\n'))
    console.log(
      `\nunloaded, one request at a time (200 each): messages page 1 p50 ${first.p50.toFixed(1)} ms, ` +
        `p99 ${first.p99.toFixed(1)} ms; page 10,000 p50 ${tenThousandth.p50.toFixed(1)} ms, p99 ${tenThousandth.p99.toFixed(1)} ms`,
    )
    saveResults('conversations', {
      connections: CONNECTIONS,
      seconds: SECONDS,
      unloaded: { first, tenThousandth },
      results,
    })
  })
}
