import pg from 'pg'
import { WebhookReceiver } from '../../src/server/testing/webhook-receiver.ts'
import { signUpAccounts } from '../lib/accounts.ts'
import { type ConnectionPlan, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import { SECONDS, signIn, startServer, stopServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { type Measurement, summarize, table } from '../lib/stats.ts'

/**
 * Webhooks, against the real server on PostgreSQL with a receiver on loopback
 * (WEBHOOK_ALLOW_PRIVATE=1):
 * 1. deliveries per second: DELIVERIES rows queued at once (to 1 and to 10 endpoints), timed from
 *    the NOTIFY to the last request the receiver gets;
 * 2. the added latency of a prompt save (a new version, which queues prompt.version.created,
 *    prompt.label.moved and prompt.updated) with no endpoint and with three endpoints subscribed:
 *    it should be the cost of an insert, not of a delivery (the save never waits for one).
 */
const DATABASE_URL =
  process.env.BENCH_WEBHOOKS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_webhooks'
const PASSWORD = 'benchmark password 1'
const EMAIL = 'bench-webhooks@bench.test'
const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 2000)
const PROMPTS = 50

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.url}: ${res.status} ${await res.text()}`)
  return (await res.json()) as T
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server and one direct client.
 */
export const webhooksConnections: ConnectionPlan = {
  databaseUrl: DATABASE_URL,
  holds: { 'app server': SERVER_CONNECTIONS, 'direct client': 1 },
}

export async function runWebhooksBenchmark(): Promise<void> {
  await ensureBenchDatabase(true, DATABASE_URL)
  await signUpAccounts(DATABASE_URL, [EMAIL], PASSWORD)
  // The receiver listens on loopback; the server runs as in production, which asks for both.
  process.env.WEBHOOK_ALLOW_PRIVATE = '1'
  process.env.WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION = '1'
  // Unlimited: the saves below need more prompts than a trial's ten.
  process.env.PLANS = 'off'
  const server = await startServer({ DATABASE_URL })
  const receiver = await WebhookReceiver.start()
  const client = new pg.Client({ connectionString: DATABASE_URL })
  await client.connect()
  try {
    const { base } = server
    const cookie = await signIn(base, EMAIL, PASSWORD)
    const headers = { cookie, Origin: base, 'Content-Type': 'application/json' }
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      })
    const createEndpoint = async (path: string, events: string[]) =>
      json<{ id: string }>(await call('POST', '/api/v1/webhooks', { url: `${receiver.url}${path}`, events }))
    const setEnabled = async (ids: string[], enabled: boolean) => {
      for (const id of ids) await json(await call('PATCH', `/api/v1/webhooks/${id}`, { enabled }))
    }

    // 1. Throughput of the worker.
    const throughput: Array<{ endpoints: number; deliveries: number; seconds: number; perSecond: number }> =
      []
    for (const endpointCount of [1, 10]) {
      const endpoints = await Promise.all(
        Array.from({ length: endpointCount }, (_, i) =>
          createEndpoint(`/throughput-${endpointCount}-${i}`, ['prompt.updated']),
        ),
      )
      const before = receiver.received.length
      const body = JSON.stringify({ type: 'prompt.updated', data: { bench: true } })
      const started = performance.now()
      await client.query(
        `WITH queued AS (
           INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, payload)
           SELECT e.id, 'evt_bench_' || n, 'prompt.updated', $2
           FROM generate_series(1, $1::int) AS n
           JOIN webhook_endpoints e ON e.id = ANY ($3::uuid[]) AND (n % $4::int) = (array_position($3::uuid[], e.id) - 1)
           RETURNING 1)
         SELECT pg_notify('webhook_deliveries', '') FROM (SELECT 1 FROM queued LIMIT 1) AS x`,
        [DELIVERIES, body, endpoints.map((e) => e.id), endpointCount],
      )
      await receiver.waitFor(before + DELIVERIES)
      const seconds = (performance.now() - started) / 1000
      throughput.push({
        endpoints: endpointCount,
        deliveries: DELIVERIES,
        seconds,
        perSecond: DELIVERIES / seconds,
      })
      await setEnabled(
        endpoints.map((e) => e.id),
        false,
      )
    }

    // 2. The save's latency without and with three subscribed endpoints.
    const prompts: string[] = []
    for (let i = 0; i < PROMPTS; i++) {
      prompts.push(
        (
          await json<{ id: string }>(
            await call('POST', '/api/v1/prompts', { title: `Bench ${i}`, body: 'v0' }),
          )
        ).id,
      )
    }
    let saves = 0
    const measureSaves = async (seconds: number): Promise<Measurement> => {
      const latencies: number[] = []
      const until = performance.now() + seconds * 1000
      while (performance.now() < until) {
        const id = prompts[saves % PROMPTS]!
        saves++
        const started = performance.now()
        const res = await call('PATCH', `/api/v1/prompts/${id}`, {
          body: `Version ${saves}`,
          title: `Bench ${saves}`,
        })
        if (res.status !== 200) throw new Error(`save: ${res.status} ${await res.text()}`)
        await res.arrayBuffer()
        latencies.push(performance.now() - started)
      }
      return summarize(latencies, seconds)
    }
    await measureSaves(Math.max(1, Math.round(SECONDS / 5)))
    const without = await measureSaves(SECONDS)
    const subscribed = await Promise.all(
      [1, 2, 3].map((i) =>
        createEndpoint(`/save-${i}`, ['prompt.version.created', 'prompt.label.moved', 'prompt.updated']),
      ),
    )
    const receivedBefore = receiver.received.length
    const withThree = await measureSaves(SECONDS)
    const receivedDuring = receiver.received.length - receivedBefore
    const queued = Number(
      (
        await client.query(
          `SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = ANY ($1::uuid[])`,
          [subscribed.map((e) => e.id)],
        )
      ).rows[0].n,
    )

    await receiver.waitFor(receivedBefore + queued)
    // The statements a save adds, without HTTP and without the worker sending meanwhile: the three
    // enqueues (one INSERT … SELECT each, three rows each) in a transaction that is rolled back.
    const [owner] = (
      await client.query('SELECT owner_user_id FROM webhook_endpoints WHERE id = $1', [subscribed[0]!.id])
    ).rows as Array<{ owner_user_id: string }>
    const payload = JSON.stringify({ type: 'prompt.version.created', data: { body: 'x'.repeat(800) } })
    const enqueue = (type: string) =>
      client.query(
        `WITH queued AS (
           INSERT INTO webhook_deliveries (endpoint_id, event_id, event_type, payload)
           SELECT id, 'evt_sql', $2, $3 FROM webhook_endpoints
           WHERE owner_user_id = $1 AND enabled AND $2 = ANY (events)
           RETURNING 1)
         SELECT pg_notify('webhook_deliveries_bench', '') FROM (SELECT 1 FROM queued LIMIT 1) AS x`,
        [owner!.owner_user_id, type, payload],
      )
    const sqlLatencies: number[] = []
    const sqlUntil = performance.now() + SECONDS * 1000
    while (performance.now() < sqlUntil) {
      await client.query('BEGIN')
      const started = performance.now()
      for (const type of ['prompt.version.created', 'prompt.label.moved', 'prompt.updated'])
        await enqueue(type)
      sqlLatencies.push(performance.now() - started)
      await client.query('ROLLBACK')
    }
    const enqueueSql = summarize(sqlLatencies, SECONDS)

    console.log(
      `\nwebhooks benchmark: ${DELIVERIES} deliveries per run; saves for ${SECONDS} s each, 1 connection\n`,
    )
    console.log(
      table(
        ['worker throughput', 'deliveries', 'seconds', 'deliveries/s'],
        throughput.map((t) => [
          `${t.endpoints} endpoint${t.endpoints === 1 ? '' : 's'}`,
          String(t.deliveries),
          t.seconds.toFixed(2),
          t.perSecond.toFixed(0),
        ]),
      ),
    )
    console.log('')
    console.log(
      table(
        ['prompt save (new version)', 'p50 ms', 'p99 ms', 'saves/s'],
        [
          [
            'no endpoint',
            without.p50.toFixed(2),
            without.p99.toFixed(2),
            without.requestsPerSecond.toFixed(0),
          ],
          [
            '3 endpoints subscribed',
            withThree.p50.toFixed(2),
            withThree.p99.toFixed(2),
            withThree.requestsPerSecond.toFixed(0),
          ],
          ['added', (withThree.p50 - without.p50).toFixed(2), (withThree.p99 - without.p99).toFixed(2), ''],
        ],
      ),
    )
    console.log(
      `\nthe three enqueue statements of a save (3 endpoints), SQL only: p50 ${enqueueSql.p50.toFixed(2)} ms, p99 ${enqueueSql.p99.toFixed(2)} ms`,
    )
    console.log(
      `\n${queued} deliveries queued by the measured saves (3 events x 3 endpoints per save); ${receivedDuring} of them received while the saves ran`,
    )
    const file = saveResults('webhooks', { throughput, saves: { without, withThree, queued, enqueueSql } })
    console.log(`results: ${file}`)
  } finally {
    await client.end()
    await receiver.close()
    await stopServer(server)
  }
}
