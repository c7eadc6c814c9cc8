import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../domain/api/account.ts'
import { authOperations } from '../domain/api/auth.ts'
import { dataRightsOperations } from '../domain/api/data-rights.ts'
import { promptOperations } from '../domain/api/prompts.ts'
import { webhookOperations } from '../domain/api/webhooks.ts'
import type { ExportArchive } from '../domain/data-rights.ts'
import { migrationNames } from './db/migrate.ts'
import { errorOf, TestClient, uniqueEmail } from './testing/client.ts'
import { TestMailbox } from './testing/mailbox.ts'
import { reportFigures } from './testing/reliability-report.ts'
import {
  freePort,
  RoundRobinProxy,
  type ServerProcess,
  startServerProcess,
} from './testing/server-process.ts'
import { WebhookReceiver } from './testing/webhook-receiver.ts'

/**
 * Scaling out as a new user would: two app processes on one DATABASE_URL (a fresh schema), each
 * with its own DATA_DIR and no AUTH_SECRET, started at the same moment, behind a round-robin proxy
 * on loopback that sends each request to the next process. Mail goes to a local SMTP server and
 * webhooks to a local receiver, both counting what arrives. PostgreSQL only (api-postgres).
 */
const realUrl = process.env.TEST_DATABASE_URL ?? ''
const schema = `scale_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
const dataDirs = [0, 1].map((i) => mkdtempSync(path.join(tmpdir(), `promptfolio-scale-${i}-`)))

let admin: pg.Pool
let servers: ServerProcess[] = []
let proxy: RoundRobinProxy
let mailbox: TestMailbox
let receiver: WebhookReceiver
let target: { url: string; origin: string }
/** A fake client address per simulated client: the processes trust the proxy's X-Forwarded-For. */
let nextAddress = 1
const address = () => `198.51.100.${nextAddress++}`

const rows = async <T>(text: string, values: unknown[] = []) => (await admin.query(text, values)).rows as T[]

/** Waits for a condition of the shared database (a queue drained): polls it, never a fixed sleep. */
async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

beforeAll(async () => {
  admin = new pg.Pool({ connectionString: realUrl, max: 2, options: `-c search_path=${schema},public` })
  await admin.query(`CREATE SCHEMA ${schema}`)
  const databaseUrl = new URL(realUrl)
  databaseUrl.searchParams.set('options', `-c search_path=${schema},public`)

  mailbox = await TestMailbox.start()
  receiver = await WebhookReceiver.start()
  const ports = [await freePort(), await freePort()]
  proxy = new RoundRobinProxy(ports)
  await proxy.start()
  target = { url: proxy.url, origin: proxy.url }
  // Started at the same moment, on a schema without a single table: both race to migrate.
  const started = await Promise.allSettled(
    ports.map((port, i) =>
      startServerProcess(
        {
          NODE_ENV: 'test',
          APP_URL: proxy.url,
          DATABASE_URL: databaseUrl.toString(),
          DATA_DIR: dataDirs[i]!,
          AUTH_SECRET: '',
          ADMIN_EMAIL: '',
          PLANS: 'on',
          RATE_LIMIT_MULTIPLIER: '1',
          TRUST_PROXY: '127.0.0.1',
          SMTP_URL: mailbox.url,
          WEBHOOK_ALLOW_PRIVATE: '1',
        },
        { port },
      ),
    ),
  )
  servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
  const failed = started.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
}, 120_000)

afterAll(async () => {
  const codes = await Promise.all(servers.map((server) => server.stop()))
  await proxy?.close()
  await receiver?.close()
  await mailbox?.close()
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  await admin?.end()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
  expect(codes).toEqual(codes.map(() => 0))
})

async function signedUp(): Promise<TestClient> {
  const client = new TestClient(target, { ip: address() })
  await client.signUp()
  return client
}

describe('two app processes on one PostgreSQL behind a round-robin proxy', () => {
  it('migrate once between them when started at the same moment, and share one generated secret', async () => {
    const appliedBy = servers.map((server) =>
      server
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"migrations applied"'))
        .flatMap((line) => (JSON.parse(line) as { applied: string[] }).applied),
    )
    const all = migrationNames()
    // Every migration applied exactly once: all of them by the process that took the migration lock
    // first, none by the other, which waited for it.
    expect(appliedBy.map((names) => names.length).sort((a, b) => a - b)).toEqual([0, all.length])
    expect([...appliedBy[0]!, ...appliedBy[1]!].sort()).toEqual(all)
    const recorded = await rows<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')
    expect(recorded.map((row) => row.name)).toEqual(all)
    expect(await rows('SELECT name FROM instance_secrets')).toEqual([{ name: 'auth' }])
  })

  it('make exactly one global admin of the first sign-ups, made at once on both processes', async () => {
    const clients = Array.from({ length: 6 }, () => new TestClient(target, { ip: address() }))
    const users = await Promise.all(clients.map((client) => client.signUp()))
    expect(users.filter((user) => user.globalRole === 'global_admin')).toHaveLength(1)
    expect(await rows(`SELECT 1 FROM users WHERE role = 'global_admin'`)).toHaveLength(1)
  })

  it('accept a session made on one process on the other', async () => {
    const user = await signedUp()
    const answeredBy = new Set<string | null>()
    for (let i = 0; i < 4; i += 1) {
      const me = await user.call(accountOperations.me, {})
      expect(me.status).toBe(200)
      expect(me.body.email).toBe(user.user!.email)
      answeredBy.add(me.headers.get('x-backend'))
    }
    expect(answeredBy).toEqual(new Set(['0', '1']))
    // And straight at each process, without the proxy.
    const direct = servers.map((server) =>
      user.copy({}, { url: `http://127.0.0.1:${server.port}`, origin: proxy.url }),
    )
    for (const each of direct) expect((await each.call(accountOperations.me, {})).status).toBe(200)
    // Signing out on one ends the session on both, also for a copy of its cookie: the process that
    // did not sign out drops it from memory once the database's notification arrives (decision 0286).
    expect((await user.post('/api/auth/sign-out')).status).toBe(200)
    for (let i = 0; i < 2; i += 1) expect((await user.call(accountOperations.me, {})).status).toBe(401)
    for (const each of direct) {
      await expect
        .poll(async () => (await each.call(accountOperations.me, {})).status, { timeout: 10_000 })
        .toBe(401)
    }
  })

  it('build a data export on one process and hand it out on the other', async () => {
    const user = await signedUp()
    expect(
      (await user.call(promptOperations.create, { body: { title: 'Exported', body: 'x' } })).status,
    ).toBe(201)
    const started = await user.call(dataRightsOperations.startExport, {})
    expect(started.status).toBe(201)
    const other = servers[1 - Number(started.headers.get('x-backend'))]!
    await until(
      async () =>
        (await rows(`SELECT 1 FROM data_exports WHERE id = $1 AND status = 'ready'`, [started.body.id]))
          .length === 1,
      'the export to be built',
    )
    const direct = user.copy({}, { url: `http://127.0.0.1:${other.port}`, origin: proxy.url })
    const archive = await direct.call(dataRightsOperations.downloadExport, {
      params: { id: started.body.id },
    })
    expect(archive.status).toBe(200)
    expect((archive.body.prompts as ExportArchive['prompts']).map((prompt) => prompt.title)).toEqual([
      'Exported',
    ])
  })

  it('count a rate limit once across both processes', async () => {
    // 40 failed sign-ins from one client address, alternating between the processes: the
    // address's limit (30 in 15 minutes) lets 30 through in total, not 30 on each.
    const ip = address()
    const attempts = await Promise.all(
      Array.from({ length: 40 }, () =>
        new TestClient(target, { ip }).call(authOperations.signIn, {
          body: { email: uniqueEmail('nobody'), password: 'not the right password' },
        }),
      ),
    )
    // Counted per status, so that a failure shows every status that came (it failed once under a
    // load of 15-27 with 24 of the 30 expected 401s, the others unseen).
    const statuses: Record<number, number> = {}
    for (const { status } of attempts) statuses[status] = (statuses[status] ?? 0) + 1
    expect(statuses).toEqual({ 401: 30, 429: 10 })
    expect(new Set(attempts.map((res) => res.headers.get('x-backend')))).toEqual(new Set(['0', '1']))

    // A cooldown of one mail a minute per account: one of ten concurrent code requests goes through.
    const user = await signedUp()
    const sends = await Promise.all(
      Array.from({ length: 10 }, () =>
        user.call(authOperations.sendCode, { body: { email: user.user!.email } }),
      ),
    )
    expect(sends.map((res) => res.status).sort()).toEqual([200, ...Array(9).fill(429)])
  })

  it('hold a plan limit across both processes', async () => {
    // A trial allows 10 prompts: at 9, one of 20 concurrent creates through both processes fits.
    const user = await signedUp()
    for (let i = 0; i < 9; i += 1) {
      expect(
        (await user.call(promptOperations.create, { body: { title: `Prompt ${i}`, body: 'x' } })).status,
      ).toBe(201)
    }
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        user.call(promptOperations.create, { body: { title: `Race ${i}`, body: 'x' } }),
      ),
    )
    const statuses = results.map((res) => res.status)
    expect(statuses.filter((status) => status === 201)).toHaveLength(1)
    expect(statuses.filter((status) => status === 403)).toHaveLength(19)
    expect(errorOf(results.find((res) => res.status === 403)!).code).toBe('plan_limit')
    const [row] = await rows<{ n: string }>(
      'SELECT count(*) AS n FROM prompts WHERE owner_user_id = $1 AND team_id IS NULL',
      [user.user!.id],
    )
    expect(Number(row!.n)).toBe(10)
  })

  it('send each webhook delivery and each mail exactly once', async () => {
    const owner = await signedUp()
    const hook = await owner.call(webhookOperations.create, {
      body: { url: `${receiver.url}/hook`, events: ['prompt.created', 'prompt.version.created'] },
    })
    expect(hook.status).toBe(201)
    const created = await owner.call(promptOperations.create, { body: { title: 'Hooked', body: 'v1' } })
    expect(created.status).toBe(201)
    const saves = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        owner.call(promptOperations.update, { params: { id: created.body.id }, body: { body: `v${i + 2}` } }),
      ),
    )
    expect(saves.map((res) => res.status)).toEqual(saves.map(() => 200))

    // Mail: a sign-in code and a reset link for each of 8 users, asked for at once through both.
    const users = await Promise.all(Array.from({ length: 8 }, () => signedUp()))
    const asked = await Promise.all(
      users.flatMap((user) => [
        new TestClient(target, { ip: address() }).call(authOperations.sendCode, {
          body: { email: user.user!.email },
        }),
        new TestClient(target, { ip: address() }).call(authOperations.requestPasswordReset, {
          body: { email: user.user!.email },
        }),
      ]),
    )
    expect(asked.map((res) => res.status)).toEqual(asked.map(() => 200))

    await until(
      async () =>
        (await rows(`SELECT 1 FROM webhook_deliveries WHERE status = 'pending'`)).length === 0 &&
        (await rows(`SELECT 1 FROM mail_outbox WHERE status = 'pending'`)).length === 0,
      'the webhook and mail queues to drain',
    )

    const deliveries = await rows<{ event_id: string; status: string; attempts: number }>(
      'SELECT event_id, status, attempts FROM webhook_deliveries',
    )
    // prompt.created, plus a prompt.version.created per save (the first version comes with the prompt).
    expect(deliveries.length).toBeGreaterThanOrEqual(25)
    expect(deliveries.filter((d) => d.status !== 'succeeded' || d.attempts !== 1)).toEqual([])
    const received = receiver.on('/hook').map((request) => String(request.headers['webhook-id']))
    expect(received.sort()).toEqual(deliveries.map((d) => d.event_id).sort())

    const outbox = await rows<{ to_address: string; status: string; attempts: number }>(
      'SELECT to_address, status, attempts FROM mail_outbox',
    )
    expect(outbox.filter((mail) => mail.status !== 'sent' || mail.attempts !== 1)).toEqual([])
    for (const user of users) {
      expect(outbox.filter((mail) => mail.to_address === user.user!.email)).toHaveLength(2)
    }
    const sentTo = outbox.map((mail) => mail.to_address).sort()
    expect(mailbox.mails.flatMap((mail) => mail.to).sort()).toEqual(sentTo)

    expect(proxy.served.every((count) => count > 0)).toBe(true)
    reportFigures('scale-out', {
      processes: servers.length,
      requests: proxy.served.reduce((sum, count) => sum + count, 0),
      webhookDeliveries: deliveries.length,
      webhooksReceived: received.length,
      mailsQueued: outbox.length,
      mailsReceived: mailbox.mails.length,
    })
  })
})
