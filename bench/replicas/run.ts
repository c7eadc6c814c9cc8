import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import autocannon from 'autocannon'
import type { Health } from '../../src/domain/api/system.ts'
import { TestClient } from '../../src/server/testing/client.ts'
import { startCluster } from '../../src/server/testing/pg-cluster.ts'
import { type ServerProcess, startServerProcess } from '../../src/server/testing/server-process.ts'
import type { ConnectionPlan } from '../lib/connections.ts'
import { CONNECTIONS, SECONDS } from '../lib/harness.ts'
import { trackProcess } from '../lib/processes.ts'
import { saveResults } from '../lib/results.ts'
import { table } from '../lib/stats.ts'

/**
 * Read replicas (decision 0260) on this machine: a primary and two streaming replicas of their own
 * (src/server/testing/pg-cluster.ts, temporary folders, free ports), one app process with 0, 1 and 2
 * of them in DATABASE_READ_URL. At CONNECTIONS connections for SECONDS each: the Langfuse fetch by
 * label (from memory once kept, decision 0254) and the prompts list with an API key (a statement
 * per request, sent to a replica when there is one). Every server shares the same cores, so the
 * figures show the routing's cost and that it routes, not a speed-up.
 */
const PROMPTS = Number(process.env.BENCH_REPLICAS_PROMPTS ?? 200)

async function measure(base: string, urlPath: string, headers: Record<string, string>) {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers,
    requests: [{ method: 'GET', path: urlPath }],
  })
  if (result.errors > 0 || result['2xx'] !== result.requests.total) {
    throw new Error(`${urlPath}: ${result.errors} errors, ${result.requests.total - result['2xx']} not 2xx`)
  }
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
  }
}

async function replicaReads(base: string): Promise<{ states: string[]; reads: number }> {
  const health = (await (await fetch(`${base}/api/health`)).json()) as Health
  const replicas = health.database.replicas ?? []
  return {
    states: replicas.map((replica) => replica.state),
    reads: replicas.reduce((sum, replica) => sum + replica.reads, 0),
  }
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). None on the shared server: the primary and its replicas are a cluster
 * of this benchmark's own.
 */
export const replicasConnections: ConnectionPlan = { databaseUrl: null, holds: {} }

export async function runReplicasBenchmark(): Promise<void> {
  const cluster = await startCluster({ database: 'promptfolio_bench_replicas', replicas: 2 })
  const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-bench-replicas-'))
  const rows: Record<string, unknown>[] = []
  let server: ServerProcess | undefined
  try {
    let key: { secretKey: string; publicKey: string } | undefined
    for (const count of [0, 1, 2]) {
      server = await startServerProcess({
        NODE_ENV: 'production',
        DATABASE_URL: cluster.primary.url,
        DATABASE_READ_URL: cluster.replicas
          .slice(0, count)
          .map((replica) => replica.url)
          .join(','),
        DATA_DIR: dataDir,
        AUTH_SECRET: 'bench-replicas-secret-bench-replicas-secret',
        LOG_LEVEL: 'warn',
        PLANS: 'off',
        RATE_LIMIT_MULTIPLIER: '1000',
      })
      trackProcess(server.child)
      if (!key) key = await seed(server)
      // Every replica has replayed the seed and serves reads before the run starts.
      for (let attempt = 0; ; attempt++) {
        const { states } = await replicaReads(server.base)
        if (states.every((state) => state === 'ok')) break
        if (attempt > 300) throw new Error(`replicas not ready: ${states.join(', ')}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      const basic = `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}`
      const fetchFigures = await measure(server.base, '/api/public/v2/prompts/bench-fetch?label=production', {
        Authorization: basic,
      })
      const before = await replicaReads(server.base)
      const listFigures = await measure(server.base, '/api/v1/prompts?limit=20', {
        Authorization: `Bearer ${key.secretKey}`,
      })
      const after = await replicaReads(server.base)
      rows.push({
        replicas: count,
        'fetch req/s': fetchFigures.requestsPerSecond,
        'fetch p50 ms': fetchFigures.p50Ms,
        'fetch p99 ms': fetchFigures.p99Ms,
        'list req/s': listFigures.requestsPerSecond,
        'list p50 ms': listFigures.p50Ms,
        'list p99 ms': listFigures.p99Ms,
        // Statements the replicas answered per list request (0 without replicas; 1 when every list read went there).
        'list reads on replicas per request':
          Math.round(((after.reads - before.reads) / listFigures.requests) * 100) / 100,
      })
      await server.stop()
      server = undefined
    }
  } finally {
    await server?.stop()
    await cluster.close()
    rmSync(dataDir, { recursive: true, force: true })
  }
  console.log(`\nread replicas benchmark: one app process, ${CONNECTIONS} connections, ${SECONDS} s each`)
  const header = Object.keys(rows[0] ?? {})
  console.log(
    table(
      header,
      rows.map((row) => header.map((column) => String(row[column]))),
    ),
  )
  console.log(
    `saved to ${saveResults('replicas', { connections: CONNECTIONS, seconds: SECONDS, prompts: PROMPTS, rows })}`,
  )
}

/** One account with PROMPTS prompts, one prompt with a production label, and a read-write key. */
async function seed(server: ServerProcess) {
  const owner = new TestClient({ url: server.base, origin: server.base })
  await owner.signUp()
  const key = await owner.post<{ secretKey: string; publicKey: string }>('/api/v1/api-keys', {
    name: 'bench',
    scope: 'read_write',
  })
  if (key.status !== 201) throw new Error(`creating the key: ${key.status}`)
  for (let i = 0; i < PROMPTS; i++) {
    const created = await owner.post('/api/v1/prompts', { title: `Prompt ${i}`, body: `Body ${i} {{name}}` })
    if (created.status !== 201) throw new Error(`creating a prompt: ${created.status}`)
  }
  const basic = `Basic ${Buffer.from(`${key.body.publicKey}:${key.body.secretKey}`).toString('base64')}`
  const fetched = await fetch(`${server.base}/api/public/v2/prompts`, {
    method: 'POST',
    headers: { Authorization: basic, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'bench-fetch', prompt: 'Hello {{name}}', labels: ['production'] }),
  })
  if (fetched.status !== 201) throw new Error(`creating the fetched prompt: ${fetched.status}`)
  return key.body
}
