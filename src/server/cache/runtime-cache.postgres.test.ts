import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { apiKeyOperations } from '../../domain/api/api-keys.ts'
import type { CreatedApiKey } from '../../domain/api-keys.ts'
import { httpTarget, keyPairAuthorization, TestClient } from '../testing/client.ts'
import { type ServerProcess, startServerProcess } from '../testing/server-process.ts'

/**
 * The runtime cache across two app processes on one PostgreSQL (a fresh schema): a write on one
 * reaches the other's memory through NOTIFY (a prompt, a key, a session); a process whose listening
 * connection is lost drops everything it kept. PostgreSQL only (api-postgres).
 */
const realUrl = process.env.TEST_DATABASE_URL ?? ''
const schema = `cache_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
const dataDirs = [0, 1].map((i) => mkdtempSync(path.join(tmpdir(), `promptfolio-cache-${i}-`)))

let admin: pg.Pool
const servers: ServerProcess[] = []
let key: CreatedApiKey
/** The notification channel of this test's schema. */
let channel: string

async function fetchOn(server: ServerProcess, name: string, k: CreatedApiKey = key) {
  const res = await fetch(`${server.base}/api/public/v2/prompts/${name}`, {
    headers: { Authorization: keyPairAuthorization(k) },
  })
  const body = res.status === 200 ? ((await res.json()) as { prompt: string }) : null
  return { status: res.status, prompt: body?.prompt }
}

async function writeOn(server: ServerProcess, method: string, urlPath: string, body: unknown) {
  const res = await fetch(`${server.base}${urlPath}`, {
    method,
    headers: { Authorization: keyPairAuthorization(key), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
  expect(res.status).toBeLessThan(300)
}

/** Runs `write` with no notification: the connection's triggers are off. */
async function withTriggersOff(write: (client: pg.PoolClient) => Promise<unknown>) {
  const client = await admin.connect()
  try {
    await client.query(`SET session_replication_role = replica`)
    await write(client)
  } finally {
    await client.query(`RESET session_replication_role`)
    client.release()
  }
}

/** Makes version `version` of `name` current with no notification. */
function makeCurrentUnheard(name: string, version: number) {
  return withTriggersOff((client) =>
    client.query(
      `UPDATE prompts SET current_version_id = (SELECT v.id FROM prompt_versions v WHERE v.prompt_id = prompts.id AND v.version_number = $2)
       WHERE name = $1`,
      [name, version],
    ),
  )
}

/** Cuts every process's listening connection, as a network fault or a database restart does. */
async function cutListeners() {
  const cut = await admin.query(
    `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
     WHERE application_name = ANY ($1)`,
    [servers.map((server) => `promptfolio listen ${channel} ${server.child.pid}`)],
  )
  expect(cut.rowCount).toBe(2)
}

beforeAll(async () => {
  admin = new pg.Pool({ connectionString: realUrl, max: 2, options: `-c search_path=${schema},public` })
  await admin.query(`CREATE SCHEMA ${schema}`)
  const databaseUrl = new URL(realUrl)
  databaseUrl.searchParams.set('options', `-c search_path=${schema},public`)
  // One after the other: the first applies the migrations.
  for (const dataDir of dataDirs) {
    servers.push(
      await startServerProcess({
        NODE_ENV: 'test',
        DATABASE_URL: databaseUrl.toString(),
        DATA_DIR: dataDir,
        AUTH_SECRET: 'runtime-cache-test-secret-runtime-cache-test',
        ADMIN_EMAIL: '',
        PLANS: 'off',
        RATE_LIMIT_MULTIPLIER: '1000',
      }),
    )
  }
  const [first] = servers
  const owner = new TestClient(httpTarget(first!.base))
  await owner.signUp()
  const created = await owner.call(apiKeyOperations.create, { body: { name: 'two', scope: 'read_write' } })
  key = created.body
  channel = (await admin.query<{ c: string }>('SELECT promptfolio_cache_channel($1) AS c', [schema])).rows[0]!
    .c
}, 120_000)

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()))
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await admin?.end()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

describe('the runtime cache on two processes', () => {
  it('serves a label moved on one process from the other once the move commits; the mover sees it at once', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    await writeOn(a, 'POST', '/api/public/v2/prompts', {
      name: 'shared',
      prompt: 'one',
      labels: ['production'],
    })
    await writeOn(a, 'POST', '/api/public/v2/prompts', { name: 'shared', prompt: 'two', labels: [] })
    expect(await fetchOn(b, 'shared')).toEqual({ status: 200, prompt: 'one' })
    expect(await fetchOn(b, 'shared')).toEqual({ status: 200, prompt: 'one' })
    expect(await fetchOn(a, 'shared')).toEqual({ status: 200, prompt: 'one' })
    await writeOn(a, 'PATCH', '/api/public/v2/prompts/shared/versions/2', { newLabels: ['production'] })
    // The writer's next fetch, without waiting for anything.
    expect(await fetchOn(a, 'shared')).toEqual({ status: 200, prompt: 'two' })
    // The other process hears of it asynchronously: polled, never a fixed wait.
    await expect.poll(async () => (await fetchOn(b, 'shared')).prompt, { timeout: 10_000 }).toBe('two')
  })

  it('refuses a key revoked on one process on the other', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const owner = new TestClient(httpTarget(a.base))
    await owner.signUp()
    const doomed = (await owner.call(apiKeyOperations.create, { body: { name: 'doomed', scope: 'read' } }))
      .body
    expect((await fetchOn(b, 'nothing-here', doomed)).status).toBe(404)
    expect((await fetchOn(b, 'nothing-here', doomed)).status).toBe(404)
    expect((await owner.call(apiKeyOperations.revoke, { params: { id: doomed.id } })).status).toBe(204)
    expect((await fetchOn(a, 'nothing-here', doomed)).status).toBe(401)
    await expect
      .poll(async () => (await fetchOn(b, 'nothing-here', doomed)).status, { timeout: 10_000 })
      .toBe(401)
  })

  it('refuses on the other process a session signed out on one; the signer-out’s process at once', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const client = new TestClient(httpTarget(a.base))
    await client.signUp()
    const onA = client.copy()
    const onB = client.copy({}, httpTarget(b.base))
    for (const kept of [onA, onA, onB, onB])
      expect((await kept.call(accountOperations.me, {})).status).toBe(200)
    expect((await client.post('/api/auth/sign-out')).status).toBe(200)
    expect((await onA.call(accountOperations.me, {})).status).toBe(401)
    await expect
      .poll(async () => (await onB.call(accountOperations.me, {})).status, { timeout: 10_000 })
      .toBe(401)
  })

  it('hears only its own schema: another installation on the same database does not drop what it kept', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    expect(channel).not.toBe('promptfolio_cache')
    await writeOn(a, 'POST', '/api/public/v2/prompts', {
      name: 'apart',
      prompt: 'first',
      labels: ['production'],
    })
    await writeOn(a, 'POST', '/api/public/v2/prompts', { name: 'apart', prompt: 'second', labels: [] })
    expect(await fetchOn(b, 'apart')).toEqual({ status: 200, prompt: 'first' })
    expect(await fetchOn(b, 'apart')).toEqual({ status: 200, prompt: 'first' })
    await makeCurrentUnheard('apart', 2)
    // What the default schema's installation would send when it drops everything it kept.
    await admin.query(`SELECT pg_notify('promptfolio_cache', 'drop')`)
    // A write on b waits until b has heard its own commit, so b would have heard that one too.
    await writeOn(b, 'POST', '/api/public/v2/prompts', { name: 'fence', prompt: 'x', labels: [] })
    expect(await fetchOn(b, 'apart')).toEqual({ status: 200, prompt: 'first' })
    await admin.query('SELECT pg_notify($1, $2)', [channel, 'drop'])
    await expect.poll(async () => (await fetchOn(b, 'apart')).prompt, { timeout: 10_000 }).toBe('second')
  })

  it('drops everything kept when its listening connection is lost (notifications may have been missed)', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const client = new TestClient(httpTarget(a.base))
    await client.signUp()
    const onB = client.copy({}, httpTarget(b.base))
    await writeOn(a, 'POST', '/api/public/v2/prompts', {
      name: 'unheard',
      prompt: 'first',
      labels: ['production'],
    })
    await writeOn(a, 'POST', '/api/public/v2/prompts', { name: 'unheard', prompt: 'second', labels: [] })
    // A write on b is answered once b has heard it, and so everything committed before: no
    // notification of the writes above can arrive while b keeps what it reads next.
    await writeOn(b, 'POST', '/api/public/v2/prompts', { name: 'heard-first', prompt: 'x', labels: [] })
    expect(await fetchOn(b, 'unheard')).toEqual({ status: 200, prompt: 'first' })
    expect(await fetchOn(b, 'unheard')).toEqual({ status: 200, prompt: 'first' })
    for (let i = 0; i < 2; i++) expect((await onB.call(accountOperations.me, {})).status).toBe(200)
    await makeCurrentUnheard('unheard', 2)
    await withTriggersOff((db) => db.query(`DELETE FROM sessions WHERE user_id = $1`, [client.user!.id]))
    // Kept, so the unannounced changes are not seen: the answer and the session come from memory.
    expect(await fetchOn(b, 'unheard')).toEqual({ status: 200, prompt: 'first' })
    expect((await onB.call(accountOperations.me, {})).status).toBe(200)
    await cutListeners()
    await expect.poll(async () => (await fetchOn(b, 'unheard')).prompt, { timeout: 10_000 }).toBe('second')
    await expect
      .poll(async () => (await onB.call(accountOperations.me, {})).status, { timeout: 10_000 })
      .toBe(401)
    // And it listens again: a move made through the API later still reaches the other process.
    await writeOn(a, 'PATCH', '/api/public/v2/prompts/unheard/versions/1', { newLabels: ['production'] })
    await expect.poll(async () => (await fetchOn(b, 'unheard')).prompt, { timeout: 10_000 }).toBe('first')
  })
})
