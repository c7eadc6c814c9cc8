import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { API_KEY_RATE_LIMIT } from '../../src/domain/api-keys.ts'
import { TestClient } from '../../src/server/testing/client.ts'
import { freePort, RoundRobinProxy, startServerProcess } from '../../src/server/testing/server-process.ts'
import { type ConnectionPlan, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import { trackProcess } from '../lib/processes.ts'
import { saveResults } from '../lib/results.ts'

/**
 * Two app processes on one PostgreSQL behind a round-robin proxy (as in
 * src/server/scale-out.postgres.test.ts): how far an API key's request limit overshoots when each
 * process counts its requests and writes them behind, once a second (decision 0150). REQUESTS
 * requests with one key, CONCURRENCY at a time, alternating between the processes.
 */
const DATABASE_URL =
  process.env.BENCH_SCALE_OUT_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_scale_out'
const REQUESTS = Number(process.env.BENCH_SCALE_OUT_REQUESTS ?? 2500)
const CONCURRENCY = 16

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). Two server processes behind the proxy.
 */
export const scaleOutConnections: ConnectionPlan = {
  databaseUrl: DATABASE_URL,
  holds: { 'app servers': 2 * SERVER_CONNECTIONS },
}

export async function runScaleOutBenchmark(): Promise<void> {
  await ensureBenchDatabase(true, DATABASE_URL)
  const ports = [await freePort(), await freePort()]
  const proxy = new RoundRobinProxy(ports)
  await proxy.start()
  const dataDirs = ports.map((_, i) => mkdtempSync(path.join(tmpdir(), `promptfolio-bench-scale-${i}-`)))
  const servers = await Promise.all(
    ports.map((port, i) =>
      startServerProcess(
        {
          NODE_ENV: 'test',
          APP_URL: proxy.url,
          DATABASE_URL,
          DATA_DIR: dataDirs[i]!,
          AUTH_SECRET: '',
          ADMIN_EMAIL: '',
          PLANS: 'on',
          TRUST_PROXY: '127.0.0.1',
        },
        { port },
      ).then((server) => {
        trackProcess(server.child)
        return server
      }),
    ),
  )
  try {
    const user = new TestClient({ url: proxy.url, origin: proxy.url }, { ip: '198.51.100.1' })
    await user.signUp()
    const key = await user.post<{ secretKey: string }>('/api/v1/api-keys', { name: 'bench', scope: 'read' })
    if (key.status !== 201) throw new Error(`creating the key: ${key.status}`)
    const statuses: Record<number, number> = {}
    let sent = 0
    const started = performance.now()
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (sent < REQUESTS) {
          sent += 1
          const res = await fetch(`${proxy.url}/api/v1/prompts`, {
            headers: { Authorization: `Bearer ${key.body.secretKey}` },
          })
          await res.arrayBuffer()
          statuses[res.status] = (statuses[res.status] ?? 0) + 1
        }
      }),
    )
    const seconds = (performance.now() - started) / 1000
    const answered = statuses[200] ?? 0
    const figures = {
      processes: servers.length,
      requests: REQUESTS,
      requestsPerSecond: Math.round(REQUESTS / seconds),
      limit: API_KEY_RATE_LIMIT,
      answered,
      refused: statuses[429] ?? 0,
      other: REQUESTS - answered - (statuses[429] ?? 0),
      overshoot: answered - API_KEY_RATE_LIMIT,
    }
    console.log('\nscale-out benchmark: one API key through two processes behind a round-robin proxy')
    console.log(JSON.stringify(figures, null, 2))
    console.log(`saved to ${saveResults('scale-out', figures)}`)
  } finally {
    await Promise.all(servers.map((server) => server.stop()))
    await proxy.close()
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  }
}
