// `BENCH_AB_BASE=<commit> npm run bench:ab`: what a change did to the cost of a request, measured
// fairly on a shared machine. Two runs minutes apart differ by more than most single changes (the
// load of other work comes and goes), so both builds run at once, on one database, and take turns:
// each round measures the earlier commit's server and this working tree's alternately (their order
// swapped every round), and the answer is the median over the rounds of each figure and of the
// per-round ratios, with their range (an A/A run, BENCH_AB_BASE=HEAD with no change, shows the noise:
// ratios of 0.8-1.5 were seen at load 5-8).
//
// Scenarios (the runtime-cache benchmark's database and fixture): the Langfuse fetch by label from
// memory, an unknown /api/v1 path answered 404 through the middleware (the fixed cost of every
// request), and four signed-in reads of the database (a prompt's detail, the prompts list, a
// conversation's first page of messages and the conversations list's second page, found by its
// cursor: the route's statements, and the session's where a build reads it every time);
// `BENCH_AB_ONLY=<pattern>` measures only those whose names match. The earlier commit is checked
// out in a temporary worktree and built there; it runs on the schema this working tree migrates to
// (migrations only add, so an older server runs on it).
import { earlierCheckout } from './lib/checkout.ts'
import { APPLICATION_NAME, ownConnectionsClosed, reserveConnections } from './lib/connections.ts'
import { type BenchServer, CONNECTIONS, startServer, withCpuPerRequest } from './lib/harness.ts'
import { stopTrackedProcesses } from './lib/processes.ts'
import { median, table } from './lib/stats.ts'
import {
  FETCH_LIMITS,
  freshRuntimeCacheDatabase,
  measureTurn,
  NOT_FOUND_PATH,
  prepareRuntimeFetch,
  RUNTIME_CACHE_DATABASE_URL,
  runtimeCacheConnections,
} from './runtime-cache/run.ts'

const BASE = process.env.BENCH_AB_BASE ?? 'HEAD'
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 9)
const SECONDS = Number(process.env.BENCH_AB_SECONDS ?? 5)
/** The scenarios whose names this pattern matches, all by default: `BENCH_AB_ONLY=messages`. */
const ONLY = new RegExp(process.env.BENCH_AB_ONLY ?? '', 'i')
process.env.PGAPPNAME = APPLICATION_NAME

interface Turn {
  requestsPerSecond: number
  serverMs: number
}

const earlier = earlierCheckout(BASE)
const { commit } = earlier

try {
  await reserveConnections('ab', runtimeCacheConnections)
  const userId = await freshRuntimeCacheDatabase()
  // The earlier build first: it migrates the fresh database only as far as it knows. Both fetch
  // with one key, whose window the database counts for both (FETCH_LIMITS).
  const before = await startServer({ DATABASE_URL: RUNTIME_CACHE_DATABASE_URL }, FETCH_LIMITS, earlier.dir)
  const current = await startServer({ DATABASE_URL: RUNTIME_CACHE_DATABASE_URL }, FETCH_LIMITS)
  // Through both servers, so that both have run the same requests before they are measured. A
  // build that runs with V8's allocation-site pretenuring (before decision 0285) may still land in
  // a state where every request costs nearly twice as much: run such a comparison more than once.
  // Each adds its versions of the prompt.
  await prepareRuntimeFetch(before.base, userId)
  const { fetchPath, headers, cookie } = await prepareRuntimeFetch(current.base, userId)
  const list = (await (await fetch(`${current.base}/api/v1/prompts`, { headers: { cookie } })).json()) as {
    items: { id: string }[]
  }
  const signedIn = { cookie }
  const messagesScenario = "a conversation's messages, signed in"
  // Sixty messages written through the API: only when that scenario is measured.
  const conversationId = ONLY.test(messagesScenario)
    ? await conversationFixture(current.base, cookie, list.items[0]!.id)
    : undefined
  const secondPageScenario = "the conversations list's second page, signed in"
  // Forty-one more conversations: only when that scenario is measured.
  const secondPage = ONLY.test(secondPageScenario)
    ? await conversationsSecondPage(current.base, cookie)
    : undefined
  const scenarios = [
    { name: 'runtime fetch by label', path: fetchPath, headers, status: 200 },
    { name: 'unknown /api/v1 path (404)', path: NOT_FOUND_PATH, headers: {}, status: 404 },
    // A signed-in read of the database: the session's statement and the route's, as the screens ask.
    {
      name: "a prompt's detail, signed in",
      path: `/api/v1/prompts/${list.items[0]!.id}`,
      headers: signedIn,
      status: 200,
    },
    { name: 'the prompts list, signed in', path: '/api/v1/prompts', headers: signedIn, status: 200 },
    {
      name: messagesScenario,
      path: `/api/v1/conversations/${conversationId}/messages`,
      headers: signedIn,
      status: 200,
    },
    // A page found by its cursor, whose next cursor it writes too: as the list screen loads more.
    { name: secondPageScenario, path: `${secondPage}`, headers: signedIn, status: 200 },
  ].filter((scenario) => ONLY.test(scenario.name))
  if (scenarios.length === 0)
    throw new Error(`BENCH_AB_ONLY=${process.env.BENCH_AB_ONLY} matches no scenario`)
  const builds: [string, BenchServer][] = [
    [commit, before],
    [earlier.current, current],
  ]
  const turns = scenarios.map(() => builds.map((): Turn[] => []))
  const turn = async (server: BenchServer, scenario: (typeof scenarios)[number], seconds: number) => {
    const measured = await withCpuPerRequest(server, [RUNTIME_CACHE_DATABASE_URL], seconds, () =>
      measureTurn(server.base, scenario.path, scenario.headers, CONNECTIONS, scenario.status, seconds),
    )
    return { requestsPerSecond: measured.requestsPerSecond, serverMs: measured.cpu.server }
  }
  console.log(
    `\nA/B of ${builds[0]![0]} and ${builds[1]![0]}: ${ROUNDS} rounds of ${SECONDS} s turns, ${CONNECTIONS} connections\n`,
  )
  // A warm-up turn each: the first seconds of a fresh process run code the compiler has not optimized yet.
  for (const scenario of scenarios) for (const [, server] of builds) await turn(server, scenario, SECONDS)
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? [0, 1] : [1, 0]
    for (const [s, scenario] of scenarios.entries()) {
      for (const b of order) turns[s]![b]!.push(await turn(builds[b]![1], scenario, SECONDS))
    }
    process.stdout.write(`round ${round + 1} of ${ROUNDS} done\n`)
  }

  const figure = (value: number, digits: number) => value.toFixed(digits)
  const ratios = (s: number, of: (turn: Turn) => number) =>
    turns[s]![1]!.map((after, i) => of(after) / of(turns[s]![0]![i]!)).sort((a, b) => a - b)
  const range = (values: number[]) => `${figure(values[0]!, 2)}-${figure(values.at(-1)!, 2)}`
  console.log(
    `\n${table(
      [
        '',
        `req/s ${commit}`,
        'req/s now',
        'ratio (range)',
        `server CPU ms/req ${commit}`,
        'server CPU now',
        'ratio (range)',
      ],
      scenarios.map((scenario, s) => {
        const [before, after] = turns[s]!
        const rps = ratios(s, (t) => t.requestsPerSecond)
        const cpu = ratios(s, (t) => t.serverMs)
        return [
          scenario.name,
          figure(median(before!.map((t) => t.requestsPerSecond)), 0),
          figure(median(after!.map((t) => t.requestsPerSecond)), 0),
          `${figure(median(rps), 2)} (${range(rps)})`,
          figure(median(before!.map((t) => t.serverMs)), 3),
          figure(median(after!.map((t) => t.serverMs)), 3),
          `${figure(median(cpu), 2)} (${range(cpu)})`,
        ]
      }),
    )}`,
  )
  const fetchTurns = scenarios.findIndex((scenario) => scenario.name === 'runtime fetch by label')
  const notFound = scenarios.findIndex((scenario) => scenario.status === 404)
  if (fetchTurns >= 0 && notFound >= 0) {
    const fetchShare = (b: number) =>
      median(
        turns[fetchTurns]![b]!.map(
          (t, i) => t.requestsPerSecond / turns[notFound]![b]![i]!.requestsPerSecond,
        ),
      )
    console.log(
      `\nThe fetch's req/s as a share of the 404's (median of the rounds): ${commit} ${figure(fetchShare(0) * 100, 0)}%, now ${figure(fetchShare(1) * 100, 0)}%.`,
    )
  }
  console.log(`Ratios are now/${commit}: above 1 for req/s and below 1 for CPU is better.`)
} finally {
  await stopTrackedProcesses()
  await ownConnectionsClosed('ab', RUNTIME_CACHE_DATABASE_URL).catch((error: Error) =>
    console.warn(error.message),
  )
  earlier.remove()
}

/**
 * A conversation as the conversation screen opens it: a full first page of messages (50 of 60),
 * one in five with a prompt attached.
 */
async function conversationFixture(base: string, cookie: string, promptId: string): Promise<string> {
  const post = poster(base, cookie)
  const { id } = await post('/api/v1/conversations', { title: 'Support triage' })
  for (let i = 0; i < 60; i++) {
    await post(`/api/v1/conversations/${id}/messages`, {
      role: i % 2 ? 'assistant' : 'user',
      content: { text: `Message ${i + 1}: a question or an answer of a sentence or two. `.repeat(2) },
      ...(i % 5 === 0 && { attachments: [{ promptId }] }),
    })
  }
  return id
}

/**
 * The path of the conversations list's second page: forty-one conversations written through the
 * API, so that the second page is full too, and the first page's cursor to it.
 */
async function conversationsSecondPage(base: string, cookie: string): Promise<string> {
  const post = poster(base, cookie)
  for (let i = 0; i < 41; i++)
    await post('/api/v1/conversations', { title: `Thread ${i + 1}`, tags: ['bench'] })
  const res = await fetch(`${base}/api/v1/conversations`, { headers: { cookie } })
  const { nextCursor } = (await res.json()) as { nextCursor: string | null }
  if (!nextCursor) throw new Error('the conversations list has no second page')
  return `/api/v1/conversations?cursor=${encodeURIComponent(nextCursor)}`
}

/** POSTs JSON as the signed-in `cookie`, expecting 201 and the created object's id. */
function poster(base: string, cookie: string) {
  return async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { cookie, Origin: base, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`)
    return (await res.json()) as { id: string }
  }
}
