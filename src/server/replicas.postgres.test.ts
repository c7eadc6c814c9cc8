import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminOperations } from '../domain/api/admin.ts'
import { apiKeyOperations } from '../domain/api/api-keys.ts'
import { promptOperations } from '../domain/api/prompts.ts'
import type { Health } from '../domain/api/system.ts'
import type { CreatedApiKey } from '../domain/api-keys.ts'
import { httpTarget, keyPairAuthorization, TestClient } from './testing/client.ts'
import { startCluster, type TestCluster } from './testing/pg-cluster.ts'
import { type ServerProcess, startServerProcess } from './testing/server-process.ts'

/**
 * Read replicas, proven with a real one: a primary and a streaming replica of their own (initdb,
 * pg_basebackup -R, pg_ctl on free ports, in a temporary folder; the machine's cluster is left
 * alone), and two app processes with DATABASE_URL on the primary and DATABASE_READ_URL on the
 * replica. The replica applies each commit a second late (recovery_min_apply_delay), so that a read
 * routed to it without care would miss a write just made. Reads served by the replica are counted
 * with the replica's own pg_stat_statements. Runs with the PostgreSQL suites (TEST_DATABASE_URL set),
 * whose server it does not use.
 */
const MAX_LAG_MS = 5_000
const APPLY_DELAY_MS = 1_000
const dataDirs = [0, 1].map((i) => mkdtempSync(path.join(tmpdir(), `promptfolio-replicas-${i}-`)))

let cluster: TestCluster
let primaryAdmin: pg.Pool
let replicaAdmin: pg.Pool
const servers: ServerProcess[] = []
let owner: TestClient
let writeKey: CreatedApiKey
let readKey: CreatedApiKey

/** Statements that read a table (prompts by default), as the server's own statistics count them. */
async function promptReads(pool: pg.Pool, table = 'prompts'): Promise<number> {
  const { rows } = await pool.query<{ calls: string | null }>(
    `SELECT sum(calls) AS calls FROM pg_stat_statements
      WHERE query ILIKE 'select%' AND query LIKE $1 AND query NOT ILIKE '%pg_stat_statements%'`,
    [`%"${table}"%`],
  )
  return Number(rows[0]?.calls ?? 0)
}

async function replicaStates(): Promise<string[]> {
  return Promise.all(
    servers.map(async (server) => {
      const health = (await (await fetch(`${server.base}/api/health`)).json()) as Health
      return health.database.replicas?.[0]?.state ?? 'none'
    }),
  )
}

/** The same session, sent to one process (its own origin: each process's APP_URL is its address). */
const on = (server: ServerProcess, client: TestClient) =>
  client.copy({}, { url: server.base, origin: server.base })

async function fetchPrompt(server: ServerProcess, name: string, key: CreatedApiKey) {
  const res = await fetch(`${server.base}/api/public/v2/prompts/${name}`, {
    headers: { Authorization: keyPairAuthorization(key) },
  })
  const body = res.status === 200 ? ((await res.json()) as { prompt: string }) : null
  return { status: res.status, prompt: body?.prompt }
}

async function langfuse(server: ServerProcess, method: string, urlPath: string, body?: unknown) {
  const res = await fetch(`${server.base}${urlPath}`, {
    method,
    headers: { Authorization: keyPairAuthorization(writeKey), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

beforeAll(async () => {
  cluster = await startCluster({ database: 'promptfolio', replicas: 1, applyDelayMs: APPLY_DELAY_MS })
  primaryAdmin = new pg.Pool({ connectionString: cluster.primary.url, max: 1 })
  replicaAdmin = new pg.Pool({ connectionString: cluster.replicas[0]!.url, max: 1 })
  primaryAdmin.on('error', () => {})
  replicaAdmin.on('error', () => {})
  // One after the other: the first applies the migrations.
  for (const dataDir of dataDirs) {
    servers.push(
      await startServerProcess({
        NODE_ENV: 'test',
        DATABASE_URL: cluster.primary.url,
        DATABASE_READ_URL: cluster.replicas[0]!.url,
        DATABASE_READ_MAX_LAG_MS: String(MAX_LAG_MS),
        DATA_DIR: dataDir,
        AUTH_SECRET: 'replicas-test-secret-replicas-test-secret',
        ADMIN_EMAIL: '',
        PLANS: 'off',
        RATE_LIMIT_MULTIPLIER: '1000',
      }),
    )
  }
  owner = new TestClient(httpTarget(servers[0]!.base))
  await owner.signUp()
  writeKey = (await owner.call(apiKeyOperations.create, { body: { name: 'writer', scope: 'read_write' } }))
    .body
  readKey = (await owner.call(apiKeyOperations.create, { body: { name: 'reader', scope: 'read' } })).body
}, 120_000)

afterAll(async () => {
  const codes = await Promise.all(servers.map((server) => server.stop()))
  await primaryAdmin?.end()
  await replicaAdmin?.end()
  await cluster?.close()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  expect(codes).toEqual(codes.map(() => 0))
}, 60_000)

describe('two app processes on a primary and a streaming replica', () => {
  it('serve the lists from the replica', async () => {
    await expect.poll(replicaStates, { timeout: 20_000 }).toEqual(['ok', 'ok'])
    for (const title of ['One', 'Two', 'Three']) {
      expect(
        (await owner.call(promptOperations.create, { body: { title, body: `${title} body` } })).status,
      ).toBe(201)
    }
    // Right after the writes the owner's reads stay on the primary; once each process has seen the
    // replica replay them (a second later, at its next probe), they move there.
    for (const server of servers) {
      await expect
        .poll(
          async () => {
            const before = await promptReads(replicaAdmin)
            expect((await on(server, owner).call(promptOperations.list, {})).status).toBe(200)
            return (await promptReads(replicaAdmin)) - before
          },
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0)
    }
    const [replicaBefore, primaryBefore] = [await promptReads(replicaAdmin), await promptReads(primaryAdmin)]
    for (const server of [...servers, ...servers]) {
      const list = await on(server, owner).call(promptOperations.list, {})
      expect(list.status).toBe(200)
      expect(list.body.items.map((item) => item.title).sort()).toEqual(['One', 'Three', 'Two'])
    }
    expect((await promptReads(replicaAdmin)) - replicaBefore).toBeGreaterThanOrEqual(4)
    expect((await promptReads(primaryAdmin)) - primaryBefore).toBe(0)

    // A prompt's versions and one version: who may see the prompt is asked of the primary, the
    // versions are read from the replica.
    const [first] = (await owner.call(promptOperations.list, {})).body.items
    const versionsBefore = await promptReads(replicaAdmin, 'prompt_versions')
    for (const server of servers) {
      const versions = await on(server, owner).call(promptOperations.versions, { params: { id: first!.id } })
      expect(versions.status).toBe(200)
      const version = await on(server, owner).call(promptOperations.version, {
        params: { id: first!.id, versionId: versions.body.items[0]!.id },
      })
      expect(version.status).toBe(200)
      expect(version.body.body).toMatch(/ body$/)
    }
    expect((await promptReads(replicaAdmin, 'prompt_versions')) - versionsBefore).toBeGreaterThanOrEqual(4)
  })

  it('show each replica in /api/health by number and in System Health by host, with its state and lag', async () => {
    const replica = cluster.replicas[0]!
    const publicAnswer = await fetch(`${servers[0]!.base}/api/health`)
    const text = await publicAnswer.text()
    expect(text).not.toContain(String(replica.port))
    const health = JSON.parse(text) as Health
    expect(health.database.replicas).toEqual([
      expect.objectContaining({ name: 'replica 1', state: 'ok', lagMs: expect.any(Number) }),
    ])
    const admin = await owner.call(adminOperations.health, {})
    expect(admin.status).toBe(200)
    expect(admin.body.database.replicas).toEqual([
      expect.objectContaining({ name: `127.0.0.1:${replica.port}/promptfolio`, state: 'ok' }),
    ])
    expect(admin.body.database.replicas[0]!.lagMs).toBeLessThanOrEqual(MAX_LAG_MS)
  })

  it('show a session and a key their own writes at once, on either process', async () => {
    for (let round = 0; round < 3; round++) {
      const [writer, reader] = round % 2 === 0 ? servers : [...servers].reverse()
      const title = `Mine ${round}`
      expect(
        (await on(writer!, owner).call(promptOperations.create, { body: { title, body: 'x' } })).status,
      ).toBe(201)
      const list = await on(reader!, owner).call(promptOperations.list, {})
      expect(list.body.items.map((item) => item.title)).toContain(title)

      const name = `key-written-${round}`
      expect((await langfuse(writer!, 'POST', '/api/public/v2/prompts', { name, prompt: 'p' })).status).toBe(
        201,
      )
      const listed = await langfuse(reader!, 'GET', `/api/public/v2/prompts?name=${name}`)
      expect((listed.body.data as { name: string }[]).map((prompt) => prompt.name)).toEqual([name])
    }
  })

  it('serve a label move from every process within the lag bound, and never the old version again', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    await langfuse(a, 'POST', '/api/public/v2/prompts', {
      name: 'moving',
      prompt: 'one',
      labels: ['production'],
    })
    await langfuse(a, 'POST', '/api/public/v2/prompts', { name: 'moving', prompt: 'two', labels: [] })
    // Another caller (a read-only key that wrote nothing) fetches on both: kept in each process.
    for (const server of [a, b]) {
      await expect.poll(async () => (await fetchPrompt(server, 'moving', readKey)).prompt).toBe('one')
    }
    const moved = await langfuse(b, 'PATCH', '/api/public/v2/prompts/moving/versions/2', {
      newLabels: ['production'],
    })
    expect(moved.status).toBe(200)
    // Each process drops its copy when it hears the move, and fills it again only from the primary
    // or a replica that has replayed the move: a fill from the lagging replica would keep 'one'.
    for (const server of [a, b]) {
      await expect
        .poll(async () => (await fetchPrompt(server, 'moving', readKey)).prompt, { timeout: MAX_LAG_MS })
        .toBe('two')
    }
    for (let i = 0; i < 5; i++) {
      for (const server of [a, b])
        expect(await fetchPrompt(server, 'moving', readKey)).toEqual({ status: 200, prompt: 'two' })
    }
  })

  it('lose no request when the replica stops under load, and read from it again once it is back', async () => {
    const replica = cluster.replicas[0]!
    const statuses: number[] = []
    let running = true
    const load = Array.from({ length: 6 }, async (_, i) => {
      const server = servers[i % 2]!
      const client = on(server, owner)
      while (running) {
        const res =
          i % 3 === 2
            ? await fetchPrompt(server, 'moving', readKey)
            : await client.call(promptOperations.list, { query: { limit: 5 } })
        statuses.push(res.status)
      }
    })
    const served = async (atLeast: number) =>
      expect.poll(() => statuses.length, { timeout: 20_000 }).toBeGreaterThanOrEqual(atLeast)
    try {
      await served(30)
      await replica.stop()
      await expect.poll(replicaStates, { timeout: 10_000 }).toEqual(['down', 'down'])
      await served(statuses.length + 60)
    } finally {
      running = false
      await Promise.all(load)
    }
    expect(statuses.length).toBeGreaterThan(90)
    expect(statuses.filter((status) => status !== 200)).toEqual([])

    await replica.start()
    await expect.poll(replicaStates, { timeout: 15_000 }).toEqual(['ok', 'ok'])
    const before = await promptReads(replicaAdmin)
    for (const server of servers)
      expect((await on(server, owner).call(promptOperations.list, {})).status).toBe(200)
    expect((await promptReads(replicaAdmin)) - before).toBeGreaterThanOrEqual(2)
  })
})
