import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import http from 'node:http'
import { cpus } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import pg from 'pg'
import { startFlags } from '../../scripts/start-flags.mjs'
import { loadConfig } from '../../src/server/config.ts'
import { freePort } from '../../src/server/testing/server-process.ts'
import { type BareServer, bareFloor } from './bare-http.ts'
import { isTooManyClients, tooManyClients } from './connections.ts'
import { BENCH_AUTH_SECRET, databaseName } from './database.ts'
import { postgresCpuSince } from './postgres-cpu.ts'
import { trackProcess } from './processes.ts'
import { replay, type Statement } from './replay.ts'
import { type SqlRecorder, sqlRecorder } from './sql-capture.ts'
import { type Measurement, percentile, summarize } from './stats.ts'

/** What every benchmark shares: the real server, signing in, and the two ways of measuring. */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32)
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
/**
 * Node flags for the server process, split on spaces: `BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`
 * profiles the server under a benchmark's load (the profile is written when the run stops it).
 */
const SERVER_FLAGS = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? []
const WARMUP_SECONDS = 2
const root = path.resolve(import.meta.dirname, '../..')

export interface BenchServer {
  base: string
  process: ChildProcess
  /** From spawning the process to the first 200 on /api/health. */
  startMs: number
  /** The process's CPU time (user + system) up to that answer: steadier than `startMs` on a busy machine. */
  startCpuMs: number
}

/**
 * The real server, as `npm start` runs it (after its build check), on a benchmark database:
 * PostgreSQL by URL or PGlite in a data directory, with `extraEnv` on top. Migrations apply at start.
 * `checkout`: the working tree to build and run (another commit's, for `bench:ab`); this one by default.
 */
export async function startServer(
  database: { DATABASE_URL: string } | { DATA_DIR: string },
  extraEnv: Record<string, string> = {},
  checkout = root,
): Promise<BenchServer> {
  const port = await freePort()
  const base = `http://localhost:${port}`
  execFileSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: checkout, stdio: 'inherit' })
  const spawnedAt = performance.now()
  // As `npm start` runs it (the checkout's own start flags), plus the run's profiling flags.
  const child = spawn(process.execPath, [...startFlags(checkout), ...SERVER_FLAGS, 'dist/server/main.mjs'], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: base,
      ...database,
      AUTH_SECRET: BENCH_AUTH_SECRET,
      // One log line per request would measure the terminal, not the API.
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MULTIPLIER: '1000',
      ...extraEnv,
    },
  })
  trackProcess(child)
  let closed = false
  child.once('close', () => {
    closed = true
  })
  // What it writes until it answers is kept: a start that fails says why in one line.
  let startOutput = ''
  const keep = (chunk: Buffer) => {
    startOutput += chunk
  }
  child.stderr!.on('data', keep)
  const forward = () => {
    child.stderr!.off('data', keep)
    process.stderr.write(startOutput)
    child.stderr!.pipe(process.stderr)
  }
  // Polled often: the start-up benchmark reads the time to the first answer off this loop. Up to
  // two minutes: a first start on PGlite (initdb, every migration) took a minute on a busy machine.
  for (let attempt = 0; attempt < 6000; attempt++) {
    // Gone (its stderr read to the end): no use waiting two minutes for it.
    if (closed) {
      if ('DATABASE_URL' in database && isTooManyClients({ message: startOutput })) {
        throw tooManyClients(database.DATABASE_URL, 'the app server')
      }
      throw new Error(
        `the server exited (${child.exitCode ?? child.signalCode}) before it answered:\n${startOutput}`,
      )
    }
    try {
      if ((await fetch(`${base}/api/health`)).ok) {
        const startMs = performance.now() - spawnedAt
        forward()
        return { base, process: child, startMs, startCpuMs: cpuMilliseconds(child.pid!) }
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  forward()
  child.kill()
  throw new Error('the server did not start')
}

/** A process's CPU time so far (user + system) in ms, read from /proc (Linux, 100 clock ticks a second). */
export function cpuMilliseconds(pid: number | string): number {
  // The fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').map(Number)
  return (fields[11]! + fields[12]!) * 10
}

/** Where the CPU of a measurement went, in ms per request: the server, PostgreSQL, and this process (the load). */
export interface CpuPerRequest {
  server: number
  postgres: number
  client: number
}

/**
 * Runs `measure` (`seconds` long) and splits the machine's CPU time over it per request: the server process's,
 * PostgreSQL's for the databases at `databaseUrls` (their backends and the server's shared processes,
 * `postgresCpuSince`) and this process's (the load generator's). On a machine where all three
 * share the cores, their sum bounds the throughput: cores / sum requests a second.
 */
export async function withCpuPerRequest(
  server: Pick<BenchServer, 'process'> | null,
  databaseUrls: string[],
  seconds: number,
  measure: () => Promise<Measurement>,
): Promise<Measurement & { cpu: CpuPerRequest }> {
  const since = cpuClock(server, databaseUrls)
  const result = await measure()
  return { ...result, cpu: perRequest(since(), result.requestsPerSecond * seconds) }
}

/**
 * Starts counting the CPU of the server (none: 0, as when this process replays SQL itself), the
 * local PostgreSQL's for the databases at `databaseUrls` and this process's; the answer reads the ms since.
 */
function cpuClock(server: Pick<BenchServer, 'process'> | null, databaseUrls: string[]): () => CpuPerRequest {
  const serverCpu = () => (server ? cpuMilliseconds(server.process.pid!) : 0)
  const serverStart = serverCpu()
  const postgresSince = postgresCpuSince(databaseUrls.map(databaseName))
  const clientStart = process.cpuUsage()
  return () => {
    const own = process.cpuUsage(clientStart)
    return {
      server: serverCpu() - serverStart,
      postgres: postgresSince(),
      client: (own.user + own.system) / 1000,
    }
  }
}

function perRequest(total: CpuPerRequest, requests: number): CpuPerRequest {
  return {
    server: total.server / requests,
    postgres: total.postgres / requests,
    client: total.client / requests,
  }
}

/** The most requests a second the cores can serve at a measured CPU cost per request. */
export function cpuBound(cpu: CpuPerRequest): number {
  return (cpus().length * 1000) / (cpu.server + cpu.postgres + cpu.client)
}

/** The server process's resident memory (VmRSS) in MB, read from /proc (Linux). */
export function residentMegabytes(server: BenchServer): number {
  const status = readFileSync(`/proc/${server.process.pid}/status`, 'utf8')
  const kilobytes = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1])
  return kilobytes / 1024
}

/** SIGTERM, then the process's exit (the server closes its database first). */
export async function stopServer(server: BenchServer): Promise<void> {
  if (server.process.exitCode !== null) return
  const exited = new Promise((resolve) => server.process.once('exit', resolve))
  server.process.kill('SIGTERM')
  await exited
}

/**
 * Runs `run` against the real server on `databaseUrl` and, beside it, the app in-process recording
 * the SQL of a request; stops both afterwards, also when `run` fails.
 */
export async function withBenchServer(
  databaseUrl: string,
  run: (bench: { base: string; recorder: SqlRecorder; server: BenchServer }) => Promise<void>,
): Promise<void> {
  const server = await startServer({ DATABASE_URL: databaseUrl })
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_URL: server.base,
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: BENCH_AUTH_SECRET,
    LOG_LEVEL: 'silent',
  })
  const recorder = await sqlRecorder(config, databaseUrl)
  try {
    await run({ base: server.base, recorder, server })
  } finally {
    await recorder.close()
    await stopServer(server)
  }
}

/** Signs in and answers the session cookie. */
export async function signIn(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: base },
    body: JSON.stringify({ email, password }),
  })
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  return res.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ')
}

export interface Target {
  base: string
  cookie: string
  path: string
}

const keptAlive = new http.Agent({ keepAlive: true, maxSockets: 1 })

/**
 * One GET on a kept-alive connection, as a browser asks (gzip accepted), its body read but not
 * decompressed: the client's own work stays small beside the server's. `fetch` spent 0.5–1 ms of
 * its own per request here (undici's Fetch objects and the decompression), which the unloaded
 * figures counted as the server's.
 */
function getAndDrain(url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      url,
      { agent: keptAlive, headers: { cookie, 'accept-encoding': 'gzip' } },
      (res) => {
        res.on('data', () => {})
        res.on('end', () => resolve(res.statusCode ?? 0))
        res.on('error', reject)
      },
    )
    request.on('error', reject)
  })
}

/**
 * Single requests one after another, after `warmup` unmeasured ones: the latency without load
 * (p50 and p99 in milliseconds). With several targets, one request to each in turn (the order
 * alternating), so that a load that comes and goes on the machine weighs on all of them alike.
 */
export async function unloadedInTurn(
  targets: Target[],
  count = 200,
  warmup = 0,
): Promise<{ p50: number; p99: number }[]> {
  const latencies: number[][] = targets.map(() => [])
  for (let i = 0; i < warmup + count; i += 1) {
    const order = i % 2 === 0 ? targets.keys() : [...targets.keys()].reverse()
    for (const t of order) {
      const { base, cookie, path } = targets[t]!
      const start = performance.now()
      const status = await getAndDrain(`${base}${path}`, cookie)
      if (status !== 200) throw new Error(`${path}: ${status}`)
      if (i >= warmup) latencies[t]!.push(performance.now() - start)
    }
  }
  return latencies.map((sample) => {
    const sorted = sample.sort((a, b) => a - b)
    return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
  })
}

/** Single requests one after another: the latency without load. */
export async function unloaded(base: string, cookie: string, path: string, count = 200) {
  return (await unloadedInTurn([{ base, cookie, path }], count))[0]!
}

export interface Scenario {
  name: string
  /** Request paths, used in turn. */
  paths: string[]
}

/** autocannon's result before aggregation (`skipAggregateResult`), which slices combine from. */
type ApiSlice = autocannon.Result & { duration: number; totalCompletedRequests: number }

/** HTTP through the whole stack: autocannon at CONNECTIONS connections, its raw result (to combine slices). */
async function apiSlice(base: string, cookie: string, scenario: Scenario, seconds: number) {
  // autocannon's own types lack the option that keeps a result unaggregated.
  const options = {
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { cookie },
    requests: scenario.paths.map((p) => ({ method: 'GET' as const, path: p })),
    skipAggregateResult: true,
  }
  const result = (await autocannon(options)) as unknown as ApiSlice
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${scenario.name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`)
  }
  return result
}

/** Slices of `apiSlice` as one measurement: their requests over their time, their latencies together. */
function combineApiSlices(slices: ApiSlice[]): Measurement {
  // Typed by autocannon's definitions only in part: its combination of unaggregated results.
  const { aggregateResult } = autocannon as unknown as {
    aggregateResult(results: unknown[], options: object): autocannon.Result
  }
  const all = aggregateResult(slices, { url: 'http://localhost', connections: CONNECTIONS })
  const seconds = slices.reduce((sum, slice) => sum + slice.duration, 0)
  return { requestsPerSecond: answered(slices) / seconds, p50: all.latency.p50, p99: all.latency.p99 }
}

/** The requests that slices of `apiSlice` had answered. */
function answered(slices: ApiSlice[]): number {
  return slices.reduce((sum, slice) => sum + slice.totalCompletedRequests, 0)
}

/**
 * The same statements straight to PostgreSQL from CONNECTIONS `pg` clients: the limit. They go as
 * the app sends them (`replay`: a statement the app prepares by name is prepared by name here too).
 * Its CPU per request is PostgreSQL's and this process's (the clients').
 */
export async function measureSql(
  databaseUrl: string,
  requests: Statement[][],
  seconds: number,
  connections = CONNECTIONS,
): Promise<Measurement & { cpu: CpuPerRequest }> {
  const replay = await sqlReplay(databaseUrl, requests, connections)
  try {
    return await withCpuPerRequest(null, [databaseUrl], seconds, async () =>
      summarize(await replay.run(seconds), seconds),
    )
  } finally {
    await replay.close()
  }
}

/** `connections` clients that replay `requests` for a while at a time; `run` answers the latencies. */
async function sqlReplay(databaseUrl: string, requests: Statement[][], connections: number) {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl })
      await client.connect()
      return client
    }),
  )
  let next = 0
  return {
    async run(seconds: number): Promise<number[]> {
      const latencies: number[] = []
      const end = performance.now() + seconds * 1000
      await Promise.all(
        clients.map(async (client) => {
          while (performance.now() < end) {
            const statements = requests[next++ % requests.length]!
            const start = performance.now()
            await replay(client, statements)
            latencies.push(performance.now() - start)
          }
        }),
      )
      return latencies
    },
    close: () => Promise.all(clients.map((client) => client.end())),
  }
}

/** Which indexes PostgreSQL uses for the statements whose SQL matches `tables`. */
export async function indexesUsed(
  databaseUrl: string,
  statements: Statement[],
  tables: RegExp,
): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  const names = new Set<string>()
  const walk = (node: Record<string, unknown>) => {
    if (typeof node['Index Name'] === 'string') names.add(node['Index Name'])
    for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child)
  }
  try {
    for (const statement of statements.filter((s) => tables.test(s.text))) {
      const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${statement.text}`, statement.values)
      walk((rows[0]['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan)
    }
  } finally {
    await client.end()
  }
  return [...names]
}

/** How many turns the API, its floors and its SQL take within a scenario's measurement (`measureScenario`). */
const SLICES = 5

/** Slices of autocannon against one server, taken in turn with others, and the CPU they cost. */
function sliceSeries(
  base: string,
  cookie: string,
  scenario: Scenario,
  cpuOf?: { server: Pick<BenchServer, 'process'>; databaseUrl: string },
) {
  const slices: ApiSlice[] = []
  // CPU milliseconds over this series' slices only.
  const cpu: CpuPerRequest = { server: 0, postgres: 0, client: 0 }
  return {
    async take(seconds: number): Promise<void> {
      const since = cpuOf ? cpuClock(cpuOf.server, [cpuOf.databaseUrl]) : undefined
      slices.push(await apiSlice(base, cookie, scenario, seconds))
      const spent = since?.()
      for (const key of ['server', 'postgres', 'client'] as const) cpu[key] += spent?.[key] ?? 0
    },
    result(): Measurement & { cpu?: CpuPerRequest } {
      const measured = combineApiSlices(slices)
      return cpuOf ? { ...measured, cpu: perRequest(cpu, answered(slices)) } : measured
    },
  }
}

type Measured = Measurement & { cpu?: CpuPerRequest }

/**
 * One scenario measured, each way after a warm-up: through the API, and `statements` (the SQL of
 * its requests, `statements[i]` for `scenario.paths[i]`) replayed straight to PostgreSQL. With
 * `floor`, also through the route's two floors (`bareFloor`), under the same load as the API: the
 * bare floor (node:http running the same statements through a pool of the app's size and writing
 * the same bytes) and the Hono floor (the same through Hono, serializing the same JSON on every
 * request; decision 0284). They take turns (API, floor, Hono floor, SQL, the order rotated by one
 * each turn), SLICES times each, so that a load that comes and goes on a shared machine weighs on all alike: measured one after the
 * other, the ratio of two 10 s measurements moved by up to 10 points between runs.
 */
export async function measureScenario(
  base: string,
  cookie: string,
  scenario: Scenario,
  databaseUrl: string,
  statements: Statement[][],
  /** Given, the API's measurement (and the floors') also says where the machine's CPU went (`withCpuPerRequest`). */
  server?: BenchServer,
  options: { floor?: boolean } = {},
): Promise<{ api: Measured; floor?: Measured; honoFloor?: Measured; sql: Measurement }> {
  const slice = SECONDS / SLICES
  const replayed = await sqlReplay(databaseUrl, statements, CONNECTIONS)
  const floors: BareServer[] = []
  try {
    if (options.floor) {
      for (const kind of ['bare', 'hono'] as const) {
        floors.push(await bareFloor(base, { cookie }, scenario.paths, statements, databaseUrl, kind))
      }
    }
    const series = [
      sliceSeries(base, cookie, scenario, server && { server, databaseUrl }),
      ...floors.map((floor) =>
        sliceSeries(floor.base, cookie, scenario, server && { server: floor, databaseUrl }),
      ),
    ]
    for (const target of [base, ...floors.map((floor) => floor.base)]) {
      await apiSlice(target, cookie, scenario, WARMUP_SECONDS)
    }
    await replayed.run(WARMUP_SECONDS)
    const latencies: number[] = []
    const turns: (() => Promise<unknown>)[] = [
      ...series.map((each) => () => each.take(slice)),
      async () => latencies.push(...(await replayed.run(slice))),
    ]
    // Each turn starts one later in the order, so that none always follows the same one (a
    // measurement right after the SQL replay's 32 connections met a PostgreSQL still busy with them).
    for (let turn = 0; turn < SLICES; turn++) {
      for (let step = 0; step < turns.length; step++) await turns[(turn + step) % turns.length]!()
    }
    const [api, floor, honoFloor] = series.map((each) => each.result())
    return { api: api!, ...(floor && honoFloor && { floor, honoFloor }), sql: summarize(latencies, SECONDS) }
  } finally {
    await replayed.close()
    for (const floor of floors) await floor.stop()
  }
}

/** The columns of `cpuCells`: where the CPU of a scenario's API measurement went. */
export const CPU_COLUMNS = [
  'scenario',
  'server ms/req',
  'PostgreSQL ms/req',
  'load ms/req',
  'CPU bound req/s',
  'API/bound',
]

/** A scenario's CPU per request (server, PostgreSQL, load), the throughput it allows, and the API's share of it. */
export function cpuCells(scenario: string, api: Measurement & { cpu?: CpuPerRequest }): string[] {
  if (!api.cpu) return [scenario, '', '', '', '', '']
  const bound = cpuBound(api.cpu)
  return [
    scenario,
    api.cpu.server.toFixed(3),
    api.cpu.postgres.toFixed(3),
    api.cpu.client.toFixed(3),
    bound.toFixed(0),
    `${((api.requestsPerSecond / bound) * 100).toFixed(0)}%`,
  ]
}

/** The API's throughput as a share of a reference's: a limit's (the SQL replayed without HTTP) or a floor's. */
export function shareOf(api: Measurement, limit: Measurement): string {
  return `${((api.requestsPerSecond / limit.requestsPerSecond) * 100).toFixed(0)}%`
}

/** The result table's first columns, which every benchmark prints: a scenario through the API and its SQL. */
export const RESULT_COLUMNS = [
  'scenario',
  'API req/s',
  'API p50 ms',
  'API p99 ms',
  'SQL req/s',
  'SQL p50 ms',
  'SQL p99 ms',
  'API/limit',
]

export function resultCells(scenario: string, api: Measurement, sql: Measurement): string[] {
  return [
    scenario,
    api.requestsPerSecond.toFixed(0),
    api.p50.toFixed(1),
    api.p99.toFixed(1),
    sql.requestsPerSecond.toFixed(0),
    sql.p50.toFixed(1),
    sql.p99.toFixed(1),
    shareOf(api, sql),
  ]
}

/**
 * The columns of `floorCells`, after RESULT_COLUMNS: the API against its bare floor and against its
 * Hono floor (goal: 85% and more of the Hono floor, decision 0284).
 */
export const FLOOR_COLUMNS = [
  'floor req/s',
  'floor p50 ms',
  'API/floor',
  'Hono floor req/s',
  'API/Hono floor',
]

export function floorCells(api: Measurement, floor: Measurement, honoFloor: Measurement): string[] {
  return [
    floor.requestsPerSecond.toFixed(0),
    floor.p50.toFixed(1),
    shareOf(api, floor),
    honoFloor.requestsPerSecond.toFixed(0),
    shareOf(api, honoFloor),
  ]
}
