import { readdirSync, readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import { and, asc, count, eq, inArray, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { ErrorBody } from '../../../domain/errors.ts'
import type { ImportResult, PromptsDocument } from '../../../domain/prompt-transfer.ts'
import type { CreatedWebhook } from '../../../domain/webhooks.ts'
import {
  auditLog,
  promptDependencies,
  promptLabelEvents,
  promptLabels,
  prompts,
  promptVersions,
  webhookDeliveries,
} from '../../db/schema/index.ts'
import { TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/**
 * The import writes new prompts in batches (`writes.createPrompts`, 500 a batch) and the export
 * streams its document: a file larger than a batch gets, per prompt, what one created alone gets
 * (versions, labels, label history, dependency rows, events, audit entry), and the plan's prompt
 * limit holds for a whole batch.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp({ webhookAllowPrivate: true })
})
afterAll(() => testApp.close())

const db = () => testApp.database.db

function newUser(app = testApp): Promise<TestClient> {
  return TestClient.signedUp(app)
}

function importInto(client: TestClient, document: unknown, dryRun = false) {
  return client.post<ImportResult & ErrorBody>('/api/v1/prompts/import', { document, teamId: null, dryRun })
}

/** More prompts than a batch: each of 3 versions, staging on the second, every tenth naming p0. */
const PROMPTS = 1_100
const bigFile = () => ({
  prompts: Array.from({ length: PROMPTS }, (_, i) => ({
    name: `p${i}`,
    title: `Prompt ${i}`,
    tags: ['bulk'],
    versions: [
      { body: `one ${i}` },
      { body: `two ${i}`, labels: ['staging'] },
      {
        body:
          i > 0 && i % 10 === 0 ? `three ${i} @@@langfusePrompt:name=p0|label=production@@@` : `three ${i}`,
      },
    ],
  })),
})

const countOf = async (table: typeof prompts | typeof auditLog, where: ReturnType<typeof eq>) =>
  (await db().select({ n: count() }).from(table).where(where))[0]!.n

describe('an import larger than a batch', () => {
  it('answers the dry run as the import, writes every prompt with what it owes, and again changes nothing', async () => {
    const client = await newUser()
    const endpoint = await client.post<CreatedWebhook>('/api/v1/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      events: ['prompt.created', 'prompt.version.created', 'prompt.label.moved'],
    })
    expect(endpoint.status).toBe(201)
    const userId = client.user!.id
    const mine = and(eq(prompts.ownerUserId, userId), isNull(prompts.teamId))!
    const auditBefore = await countOf(auditLog, eq(auditLog.actorUserId, userId))

    const dry = await importInto(client, bigFile(), true)
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({
      dryRun: true,
      created: PROMPTS,
      versioned: 0,
      unchanged: 0,
      conflicts: 0,
    })
    expect(await countOf(prompts, mine)).toBe(0)
    expect(await countOf(auditLog, eq(auditLog.actorUserId, userId))).toBe(auditBefore)

    const done = await importInto(client, bigFile())
    expect(done.status).toBe(200)
    expect({ ...done.body, dryRun: true }).toEqual(dry.body)
    expect(done.body.items.map((item) => item.name)).toEqual(bigFile().prompts.map((prompt) => prompt.name))
    expect(done.body.items.every((item) => item.action === 'create' && item.newVersions === 3)).toBe(true)

    // Every prompt: three versions, the last current, staging on the second, its label history.
    const rows = await db()
      .select({ id: prompts.id, name: prompts.name, current: promptVersions.versionNumber })
      .from(prompts)
      .innerJoin(promptVersions, eq(promptVersions.id, prompts.currentVersionId))
      .where(mine)
    expect(rows).toHaveLength(PROMPTS)
    expect(rows.every((row) => row.current === 3)).toBe(true)
    const ids = rows.map((row) => row.id)
    const [versions] = await db()
      .select({ n: count() })
      .from(promptVersions)
      .where(inArray(promptVersions.promptId, ids))
    expect(versions!.n).toBe(PROMPTS * 3)
    const staging = await db()
      .select({ version: promptVersions.versionNumber })
      .from(promptLabels)
      .innerJoin(promptVersions, eq(promptVersions.id, promptLabels.versionId))
      .where(and(inArray(promptLabels.promptId, ids), eq(promptLabels.label, 'staging')))
    expect(staging).toHaveLength(PROMPTS)
    expect(staging.every((row) => row.version === 2)).toBe(true)
    const moves = await db()
      .select({
        promptId: promptLabelEvents.promptId,
        label: promptLabelEvents.label,
        to: promptLabelEvents.toVersion,
      })
      .from(promptLabelEvents)
      .where(inArray(promptLabelEvents.promptId, ids))
    expect(moves).toHaveLength(PROMPTS * 2)
    expect(new Set(moves.map((move) => `${move.promptId} ${move.label} ${move.to}`)).size).toBe(PROMPTS * 2)
    const dependencies = await db()
      .select({ name: promptDependencies.name })
      .from(promptDependencies)
      .where(inArray(promptDependencies.promptId, ids))
    expect(dependencies).toHaveLength(Math.floor((PROMPTS - 1) / 10))
    expect(dependencies.every((row) => row.name === 'p0')).toBe(true)

    // One audit entry per prompt, naming its versions and labels.
    const audit = await db()
      .select({ action: auditLog.action, objectId: auditLog.objectId, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, userId))
    const created = audit.filter((entry) => entry.action === 'prompt.created')
    expect(created).toHaveLength(PROMPTS)
    expect(new Set(created.map((entry) => entry.objectId))).toEqual(new Set(ids))
    const p7 = rows.find((row) => row.name === 'p7')!
    expect(created.find((entry) => entry.objectId === p7.id)!.after).toEqual({
      name: 'p7',
      type: 'text',
      versions: 3,
      labels: ['staging', 'production'],
    })

    // The events of each prompt: created with version 1, versions 2 and 3, staging and production
    // moved. One import's deliveries may share a created_at (PGlite's clock has milliseconds), so
    // they are compared in a fixed order.
    const deliveries = await db()
      .select({ type: webhookDeliveries.eventType, payload: webhookDeliveries.payload })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint.body.id))
      .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
    expect(deliveries).toHaveLength(PROMPTS * 5)
    const ofP7 = deliveries
      .map((row) => ({ type: row.type, body: JSON.parse(row.payload) }))
      .filter((event) => event.body.data.prompt.name === 'p7')
      .map(({ type, body }) => ({
        type,
        version: body.data.version?.version,
        labels: body.data.version?.labels,
        label: body.data.label,
        to: body.data.toVersion,
      }))
      .sort((a, b) => `${a.type} ${a.version} ${a.label}`.localeCompare(`${b.type} ${b.version} ${b.label}`))
    expect(ofP7).toEqual([
      { type: 'prompt.created', version: 1, labels: [], label: undefined, to: undefined },
      { type: 'prompt.label.moved', version: undefined, labels: undefined, label: 'production', to: 3 },
      { type: 'prompt.label.moved', version: undefined, labels: undefined, label: 'staging', to: 2 },
      { type: 'prompt.version.created', version: 2, labels: ['staging'], label: undefined, to: undefined },
      {
        type: 'prompt.version.created',
        version: 3,
        labels: ['production', 'latest'],
        label: undefined,
        to: undefined,
      },
    ])
    // Each event once, under an id of its own.
    expect(new Set(deliveries.map((row) => JSON.parse(row.payload).id)).size).toBe(PROMPTS * 5)

    const again = await importInto(client, bigFile())
    expect(again.body).toMatchObject({ created: 0, versioned: 0, unchanged: PROMPTS, conflicts: 0 })
    expect(await countOf(prompts, mine)).toBe(PROMPTS)
  })

  it('answers progress lines as it goes, then the result', async () => {
    const client = await newUser()
    const res = await client.request<string>('POST', '/api/v1/prompts/import', {
      body: { document: bigFile(), teamId: null, dryRun: false },
      headers: { Accept: 'application/x-ndjson' },
    })
    expect(res.status).toBe(200)
    const lines = String(res.body)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const progress = lines.slice(0, -1).map((line) => line.progress.done)
    expect(progress.length).toBeGreaterThan(50)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(progress.at(-1)).toBe(PROMPTS)
    expect(lines.at(-1)).toEqual({ result: expect.objectContaining({ created: PROMPTS, conflicts: 0 }) })
  })

  it("adds versions to the prompts the space has among new ones past a batch, in the file's order", async () => {
    const client = await newUser()
    // Every hundredth prompt is there already with its first two versions.
    const had = bigFile().prompts.filter((_, i) => i % 100 === 0)
    const first = await importInto(client, {
      prompts: had.map((prompt) => ({ ...prompt, versions: prompt.versions.slice(0, 2) })),
    })
    expect(first.body).toMatchObject({ created: had.length, conflicts: 0 })

    const done = await importInto(client, bigFile())
    expect(done.status).toBe(200)
    expect(done.body).toMatchObject({ created: PROMPTS - had.length, versioned: had.length, conflicts: 0 })
    expect(done.body.items.map((item) => [item.name, item.action, item.newVersions])).toEqual(
      bigFile().prompts.map((prompt, i) => [
        prompt.name,
        i % 100 === 0 ? 'version' : 'create',
        i % 100 === 0 ? 1 : 3,
      ]),
    )
    const mine = and(eq(prompts.ownerUserId, client.user!.id), isNull(prompts.teamId))!
    const versions = await db()
      .select({ name: prompts.name, n: count() })
      .from(promptVersions)
      .innerJoin(prompts, eq(prompts.id, promptVersions.promptId))
      .where(mine)
      .groupBy(prompts.name)
    expect(versions).toHaveLength(PROMPTS)
    expect(versions.every((row) => row.n === 3)).toBe(true)
  })

  it('exports the imported prompts as one document the import reads again', async () => {
    const client = await newUser()
    expect((await importInto(client, bigFile())).status).toBe(200)
    const exported = await client.get<PromptsDocument>('/api/v1/prompts/export')
    expect(exported.status).toBe(200)
    expect(exported.body.prompts).toHaveLength(PROMPTS)
    const other = await newUser()
    const reimported = await importInto(other, exported.body)
    expect(reimported.body).toMatchObject({ created: PROMPTS, conflicts: 0 })
    const again = await client.get<PromptsDocument>('/api/v1/prompts/export')
    expect(again.body.prompts).toEqual(exported.body.prompts)
  })

  it('streams the export as the declared document, the same bytes gzipped or not', async () => {
    const client = await newUser()
    expect((await importInto(client, bigFile())).status).toBe(200)
    const plain = await client.send('GET', '/api/v1/prompts/export')
    expect(plain.status).toBe(200)
    expect(plain.headers.get('content-type')).toBe('application/json')
    const text = await plain.text()
    const document = promptOperations.exportPrompts.spec.response.parse(JSON.parse(text))
    expect(document.prompts).toHaveLength(PROMPTS)
    // Written as JSON.stringify writes the whole document: no byte differs.
    expect(text).toBe(JSON.stringify(document))
    const zipped = await client.send('GET', '/api/v1/prompts/export', {
      headers: { 'Accept-Encoding': 'gzip' },
    })
    expect(zipped.headers.get('content-encoding')).toBe('gzip')
    const unzipped = JSON.parse(gunzipSync(Buffer.from(await zipped.arrayBuffer())).toString('utf8'))
    expect({ ...unzipped, exportedAt: null }).toEqual({ ...document, exportedAt: null })
    // Another space's export is refused before any byte of a document.
    const stranger = await newUser()
    expect(
      (await stranger.get('/api/v1/prompts/export?teamId=00000000-0000-4000-8000-000000000000')).status,
    ).toBe(404)
  })
})

describe('an import against the plan limit', () => {
  let planned: TestApp
  let admin: TestClient
  beforeAll(async () => {
    planned = await createTestApp({ plansEnabled: true })
    admin = await newUser(planned) // the installation's first account: global admin, unlimited
  })
  afterAll(() => planned.close())

  const personalCount = async (client: TestClient) =>
    (
      await planned.database.db
        .select({ n: count() })
        .from(prompts)
        .where(and(eq(prompts.ownerUserId, client.user!.id), isNull(prompts.teamId)))
    )[0]!.n

  const file = (names: string[]) => ({
    prompts: names.map((name) => ({ name, title: name, versions: [{ body: `body of ${name}` }] })),
  })

  it('refuses a file whose new prompts pass the limit, writing nothing, and takes one that reaches it', async () => {
    const client = await newUser(planned) // a trial: 10 personal prompts
    for (let i = 0; i < 7; i++) await createPromptAs(client, { title: `Own ${i}`, name: `own-${i}` })
    const auditBefore = await planned.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, client.user!.id))

    // 4 new (and one it has): 7 + 4 > 10.
    const tooMany = file(['own-0', 'a', 'b', 'c', 'd'])
    for (const dryRun of [true, false]) {
      const refused = await client.post<ErrorBody & { error: { planLimit: Record<string, unknown> } }>(
        '/api/v1/prompts/import',
        { document: tooMany, teamId: null, dryRun },
      )
      expect(refused.status).toBe(403)
      expect(refused.body.error).toMatchObject({
        code: 'plan_limit',
        planLimit: { resource: 'prompts', reason: 'limit_reached', used: 7, max: 10 },
      })
    }
    expect(await personalCount(client)).toBe(7)
    const auditAfter = await planned.database.db
      .select({ n: count() })
      .from(auditLog)
      .where(eq(auditLog.actorUserId, client.user!.id))
    expect(auditAfter).toEqual(auditBefore)

    // 3 new: 7 + 3 = 10, the limit itself.
    const reaching = await importInto(client, file(['own-0', 'a', 'b', 'c']))
    expect(reaching.status).toBe(200)
    expect(reaching.body).toMatchObject({ created: 3, versioned: 1 })
    expect(await personalCount(client)).toBe(10)
    const past = await importInto(client, file(['e']))
    expect(past.status).toBe(403)
    expect(await personalCount(client)).toBe(10)
  })

  it("refuses a file whose third batch passes Pro's 1,000 (while the second is written): nothing written, the same error", async () => {
    const client = await newUser(planned)
    const granted = await admin.request('PUT', '/api/v1/admin/plans', {
      body: { context: 'personal', subjectId: client.user!.id, plan: 'pro' },
    })
    expect(granted.status).toBe(200)
    const auditOf = () =>
      planned.database.db
        .select({ n: count() })
        .from(auditLog)
        .where(eq(auditLog.actorUserId, client.user!.id))
    const auditBefore = await auditOf()
    // 1,100 new prompts: batches of 500, 500 and 100; the third would pass prompt 1,000.
    const names = Array.from({ length: PROMPTS }, (_, i) => `n${i}`)
    const limitError = {
      code: 'plan_limit',
      planLimit: { resource: 'prompts', reason: 'limit_reached', used: 1000, max: 1000 },
    }
    for (const dryRun of [true, false]) {
      const refused = await client.post<ErrorBody>('/api/v1/prompts/import', {
        document: file(names),
        teamId: null,
        dryRun,
      })
      expect(refused.status).toBe(403)
      expect(refused.body.error).toMatchObject(limitError)
    }
    // With progress lines: the same error as the last line.
    const streamed = await client.request<string>('POST', '/api/v1/prompts/import', {
      body: { document: file(names), teamId: null, dryRun: false },
      headers: { Accept: 'application/x-ndjson' },
    })
    const lines = String(streamed.body)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    expect(lines.at(-1)).toMatchObject({ status: 403, error: limitError })
    expect(lines.slice(0, -1).every((line) => line.progress.done < PROMPTS)).toBe(true)

    expect(await personalCount(client)).toBe(0)
    expect(await auditOf()).toEqual(auditBefore)
    // 1,000 of them fit.
    const fitting = await importInto(client, file(names.slice(0, 1000)))
    expect(fitting.status).toBe(200)
    expect(await personalCount(client)).toBe(1000)
  })
})

describe('the one write path', () => {
  it('keeps every raw SQL insert of versions, prompts and label history in writes.ts', () => {
    const root = new URL('../../', import.meta.url)
    // The app's code; tests and their fixtures write rows as a test needs (a race's raw insert).
    const files = (readdirSync(root, { recursive: true }) as string[]).filter(
      (file) =>
        file.endsWith('.ts') &&
        !file.endsWith('.test.ts') &&
        !file.endsWith('test-fixtures.ts') &&
        !file.startsWith('testing/'),
    )
    const inserting = files.filter((file) =>
      /INSERT INTO (prompt_versions|prompts|prompt_label_events)\b/.test(
        readFileSync(new URL(file, root), 'utf8'),
      ),
    )
    expect(inserting).toEqual(['modules/prompts/writes.ts'])
  })
})
