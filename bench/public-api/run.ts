import http from 'node:http'
import autocannon from 'autocannon'
import { signUpAccounts } from '../lib/accounts.ts'
import { type BareAnswer, type BareStatements, startBareHttpServer } from '../lib/bare-http.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import {
  CONNECTIONS,
  measureSql,
  SECONDS,
  shareOf,
  signIn,
  withBenchServer,
  withCpuPerRequest,
} from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { type Measurement, table } from '../lib/stats.ts'

/**
 * The runtime fetch of the Langfuse-compatible API: GET /api/public/v2/prompts/{name}
 * by label with a key pair, as the SDKs make it on a cache miss. Measured through HTTP at 1
 * connection (p50, p99) and at CONNECTIONS (req/s), next to the SQL limit of exactly its statements
 * (since decision 0218 one: the key's check, its rate window and plan, and the version) replayed
 * without HTTP; and the 304 path
 * (If-None-Match with the current ETag), which runs the same statements and sends no body.
 * Each run also says where the CPU went, and measures the least a Node server does for this answer:
 * a bare node:http server that runs the same statement through pg and answers fixed bytes
 * (`startBareHttpServer`). What that floor reaches of the SQL limit, no fetch served by Node and
 * pg on these cores can pass.
 */
const DATABASE_URL =
  process.env.BENCH_PUBLIC_API_DATABASE_URL ??
  'postgres://postgres@127.0.0.1:5432/promptfolio_bench_public_api'
const PASSWORD = 'benchmark password 1'
const EMAIL = 'bench-public-api@bench.test'
/** Other prompts in the same space, so the name lookup has an index to find it among. */
const OTHER_PROMPTS = 300
const VERSIONS = 10

async function measureHttp(
  base: string,
  path: string,
  headers: Record<string, string>,
  connections: number,
  seconds: number,
  status: number,
): Promise<Measurement> {
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    headers,
    requests: [{ method: 'GET', path }],
  })
  const expected = result[`${Math.floor(status / 100)}xx` as '2xx' | '3xx' | '4xx']
  if (result.errors > 0 || expected !== result.requests.total) {
    throw new Error(
      `${path}: ${result.errors} errors, ${result.requests.total - expected} unexpected answers`,
    )
  }
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

/** The fetch's answer as the load receives it (no compression asked for), for the bare server to repeat. */
async function answerOf(base: string, path: string, headers: Record<string, string>) {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${base}${path}`, { headers }, resolve).on('error', reject),
  )
  const chunks: Buffer[] = []
  for await (const chunk of response) chunks.push(chunk)
  // Decoded once: a character split between two chunks would not survive decoding each.
  const body = Buffer.concat(chunks).toString('utf8')
  // Hop-by-hop headers and the date: node:http writes its own.
  const { connection: _, 'keep-alive': __, date: ___, 'transfer-encoding': ____, ...kept } = response.headers
  return { status: response.statusCode!, headers: kept as BareAnswer['headers'], body }
}

/** A bare node:http server's answer (see `startBareHttpServer`) at CONNECTIONS, with its CPU. */
async function measureBare(
  answer: BareAnswer,
  path: string,
  headers: Record<string, string>,
  warm: number,
  statements?: BareStatements,
) {
  const bare = await startBareHttpServer(answer, statements)
  try {
    await measureHttp(bare.base, path, headers, CONNECTIONS, warm, answer.status)
    return await withCpuPerRequest(bare, SECONDS, () =>
      measureHttp(bare.base, path, headers, CONNECTIONS, SECONDS, answer.status),
    )
  } finally {
    await bare.stop()
  }
}

export async function runPublicApiBenchmark(): Promise<void> {
  await ensureBenchDatabase(true, DATABASE_URL)
  const [userId] = await signUpAccounts(DATABASE_URL, [EMAIL], PASSWORD)
  await withBenchServer(DATABASE_URL, async ({ base, recorder, server }) => {
    const cookie = await signIn(base, EMAIL, PASSWORD)
    // On Pro (the first account is global admin and grants it): a trial's ten prompts are too few.
    const granted = await fetch(`${base}/api/v1/admin/plans`, {
      method: 'PUT',
      headers: { cookie, Origin: base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ context: 'personal', subjectId: userId, plan: 'pro' }),
    })
    if (granted.status !== 200)
      throw new Error(`granting Pro failed: ${granted.status} ${await granted.text()}`)
    const keyRes = await fetch(`${base}/api/v1/api-keys`, {
      method: 'POST',
      headers: { cookie, Origin: base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', scope: 'read_write' }),
    })
    const key = (await keyRes.json()) as { publicKey: string; secretKey: string }
    const authorization = `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}`
    const create = async (name: string, prompt: string, labels: string[]) => {
      const res = await fetch(`${base}/api/public/v2/prompts`, {
        method: 'POST',
        headers: { authorization, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, prompt, labels, config: { model: 'gpt-4o', temperature: 0.2 } }),
      })
      if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${await res.text()}`)
    }
    for (let i = 0; i < OTHER_PROMPTS; i++)
      await create(`team-${i % 20}/prompt-${i}`, `Prompt ${i} {{x}}`, ['production'])
    for (let v = 1; v <= VERSIONS; v++) {
      await create(
        'support/triage',
        `Triage v${v}: {{ticket}} `.repeat(20),
        v === VERSIONS - 2 ? ['production'] : [],
      )
    }
    const path = `/api/public/v2/prompts/${encodeURIComponent('support/triage')}?label=production`
    const headers = { authorization }
    const first = await fetch(`${base}${path}`, { headers })
    const etag = first.headers.get('etag')!
    // The second request's statements: a process writes a key's first request at once, later ones
    // behind (at most once a second), so the steady state is the read alone.
    await recorder.statementsOf(path, '', headers)
    const statements = [await recorder.statementsOf(path, '', headers)]

    console.log(
      `\npublic API benchmark: fetch by label, ${SECONDS} s per measurement, ${statements[0]!.length} statements per request\n`,
    )
    const warm = Math.max(1, Math.round(SECONDS / 5))
    await measureHttp(base, path, headers, CONNECTIONS, warm, 200)
    const api1 = await measureHttp(base, path, headers, 1, SECONDS, 200)
    const apiN = await withCpuPerRequest(server, SECONDS, () =>
      measureHttp(base, path, headers, CONNECTIONS, SECONDS, 200),
    )
    // The server's own cost of an answer: an unknown /api path passes every middleware a fetch
    // passes, then answers 404 without a key check or a statement (the health check pings the
    // database, so it would not do).
    const stackN = await withCpuPerRequest(server, SECONDS, () =>
      measureHttp(base, '/api/no-such-route', {}, CONNECTIONS, SECONDS, 404),
    )
    const notModified1 = await measureHttp(base, path, { ...headers, 'if-none-match': etag }, 1, SECONDS, 304)
    const notModifiedN = await measureHttp(
      base,
      path,
      { ...headers, 'if-none-match': etag },
      CONNECTIONS,
      SECONDS,
      304,
    )
    await measureSql(DATABASE_URL, statements, warm)
    const sql1 = await measureSql(DATABASE_URL, statements, SECONDS, 1)
    const sqlN = await measureSql(DATABASE_URL, statements, SECONDS)
    // The same answer from a server that does nothing else (see startBareHttpServer), then from
    // one that runs the fetch's statement through pg first: no Node server can do less for it.
    const fetched = await answerOf(base, path, headers)
    const bareN = await measureBare(fetched, path, headers, warm)
    const floorN = await measureBare(fetched, path, headers, warm, {
      databaseUrl: DATABASE_URL,
      statements: statements[0]!,
    })

    const row = (name: string, one: Measurement | null, many: Measurement, limit?: Measurement) => [
      name,
      one?.p50.toFixed(2) ?? '',
      one?.p99.toFixed(2) ?? '',
      many.requestsPerSecond.toFixed(0),
      limit ? shareOf(many, limit) : '',
    ]
    console.log(
      table(
        [
          'fetch by label',
          'p50 ms (1 conn)',
          'p99 ms (1 conn)',
          `req/s (${CONNECTIONS} conn)`,
          'of SQL limit',
        ],
        [
          row('API 200', api1, apiN, sqlN),
          row('API 304 (If-None-Match)', notModified1, notModifiedN, sqlN),
          row('node:http + pg: the statement, fixed bytes', null, floorN, sqlN),
          row('SQL limit (same statements)', sql1, sqlN),
        ],
      ),
    )
    const ms = (value: number) => value.toFixed(3)
    const { cpu } = apiN
    console.log(
      `\nCPU per request at ${CONNECTIONS} connections (ms): fetch: server ${ms(cpu.server)}, PostgreSQL ${ms(cpu.postgres)}, load ${ms(cpu.client)}; SQL limit: PostgreSQL ${ms(sqlN.cpu.postgres)}, its clients ${ms(sqlN.cpu.client)}; the server's 404 without a statement: ${ms(stackN.cpu.server)}; a bare node:http server's same answer: ${ms(bareN.cpu.server)}, its load ${ms(bareN.cpu.client)}; with the statement run through pg first: ${ms(floorN.cpu.server)}, PostgreSQL ${ms(floorN.cpu.postgres)}, its load ${ms(floorN.cpu.client)}.`,
    )
    // The SQL limit's clients run the statement and nothing else; a server runs it too, and answers
    // over HTTP to a load that shares the cores. The floor row is the least of that on Node and pg.
    console.log(
      `The fetch reaches ${shareOf(apiN, floorN)} of what a Node server that only ran its statement reaches (${floorN.requestsPerSecond.toFixed(0)} req/s, ${shareOf(floorN, sqlN)} of the SQL limit).`,
    )
    console.log(`\nLangfuse's published figure for this fetch: p50 37 ms, p99 69 ms (over the network).`)
    console.log(statements[0]!.map((s) => `  ${s.text.replace(/\s+/g, ' ').slice(0, 140)}`).join('\n'))
    saveResults('public-api', {
      connections: CONNECTIONS,
      seconds: SECONDS,
      statements: statements[0]!.length,
      api1,
      apiN,
      notModified1,
      notModifiedN,
      sql1,
      sqlN,
      stackN,
      bareN,
      floorN,
    })
  })
}
