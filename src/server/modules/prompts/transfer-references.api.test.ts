import { readFileSync } from 'node:fs'
import { and, asc, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { webhookOperations } from '../../../domain/api/webhooks.ts'
import { parseReferences } from '../../../domain/prompt-references.ts'
import { queryRows } from '../../db/rows.ts'
import { promptDependencies, prompts, promptVersions, webhookDeliveries } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/** Import: references checked, webhooks sent, and the dependency table behind "Used by". */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp({ webhookAllowPrivate: true })
})
afterAll(() => testApp.close())

const db = () => testApp.database.db
const ref = (name: string, selector = 'label=production') => `@@@langfusePrompt:name=${name}|${selector}@@@`

function newUser(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

function importInto(client: TestClient, document: unknown, dryRun = false) {
  return client.call(promptOperations.importPrompts, { body: { document, teamId: null, dryRun } })
}

const usedBy = async (client: TestClient, id: string) =>
  (await client.call(promptOperations.usedBy, { params: { id } })).body.items.map((item) => item.name)

describe('importing prompts with references', () => {
  it('accepts references between the prompts of the file in any order, and "Used by" lists them', async () => {
    const client = await newUser()
    const document = {
      prompts: [
        { name: 'letter', title: 'Letter', versions: [{ body: `${ref('greeting')} About {{topic}}.` }] },
        { name: 'greeting', title: 'Greeting', versions: [{ body: 'Hello {{name}}.' }] },
      ],
    }
    const preview = await importInto(client, document, true)
    expect(preview.body).toMatchObject({ created: 2, conflicts: 0 })
    const done = await importInto(client, document)
    expect(done.status).toBe(200)
    const list = await client.call(promptOperations.list, {})
    const greeting = list.body.items.find((item) => item.name === 'greeting')!
    expect(await usedBy(client, greeting.id)).toEqual(['letter'])
    const refused = await client.call(promptOperations.delete, { params: { id: greeting.id } })
    expect(refused.status).toBe(409)
    expect(errorOf(refused).message).toContain('letter')
  })

  it('reports a reference to a missing prompt, or a cycle, as a conflict naming it, and imports nothing', async () => {
    const client = await newUser()
    await createPromptAs(client, { title: 'kept', body: 'Kept' })
    const document = {
      prompts: [
        { name: 'fine', title: 'Fine', versions: [{ body: `${ref('kept')}!` }] },
        { name: 'broken', title: 'Broken', versions: [{ body: 'ok' }, { body: `x ${ref('nowhere')}` }] },
        { name: 'loop-a', title: 'A', versions: [{ body: ref('loop-b') }] },
        { name: 'loop-b', title: 'B', versions: [{ body: ref('loop-a') }] },
      ],
    }
    const preview = await importInto(client, document, true)
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ created: 1, conflicts: 3 })
    expect(preview.body.items).toEqual([
      { name: 'fine', action: 'create', newVersions: 1, problem: null },
      {
        name: 'broken',
        action: 'conflict',
        newVersions: 2,
        problem: 'reference',
        detail: "This text includes nowhere (label production), which does not exist in this prompt's space.",
      },
      {
        name: 'loop-a',
        action: 'conflict',
        newVersions: 1,
        problem: 'reference',
        detail: 'These references would form a cycle: loop-a → loop-b → loop-a.',
      },
      {
        name: 'loop-b',
        action: 'conflict',
        newVersions: 1,
        problem: 'reference',
        detail: 'These references would form a cycle: loop-b → loop-a → loop-b.',
      },
    ])
    const refused = await importInto(client, document)
    expect(refused.status).toBe(409)
    expect((await client.call(promptOperations.list, {})).body.items).toHaveLength(1)
  })
})

describe('a reference named by many versions of one import', () => {
  it('resolves each the same, and still tells apart the labels, versions and prompts they name', async () => {
    const client = await newUser()
    const missing = (reference: string) =>
      `This text includes ${reference}, which does not exist in this prompt's space.`
    const base = { name: 'base', title: 'Base', versions: [{ body: 'One.' }, { body: 'Two.' }] }
    // Sixty prompts of three versions, every version naming base's production; then one naming
    // each of: a label base does not have, a version it has, one it does not, a prompt not there.
    const many = Array.from({ length: 60 }, (_, i) => ({
      name: `uses-${i}`,
      title: `Uses ${i}`,
      versions: [1, 2, 3].map((v) => ({ body: `${v}: ${ref('base')}` })),
    }))
    const document = {
      prompts: [
        ...many.slice(0, 30),
        base,
        ...many.slice(30),
        { name: 'staging-of-base', title: 'S', versions: [{ body: ref('base', 'label=staging') }] },
        { name: 'version-2', title: 'V2', versions: [{ body: ref('base', 'version=2') }] },
        { name: 'version-9', title: 'V9', versions: [{ body: ref('base', 'version=9') }] },
        { name: 'nowhere', title: 'N', versions: [{ body: `${ref('base')} ${ref('gone')}` }] },
      ],
    }
    const preview = await importInto(client, document, true)
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ created: 62, conflicts: 3 })
    expect(preview.body.items.slice(-4)).toEqual([
      {
        name: 'staging-of-base',
        action: 'conflict',
        newVersions: 1,
        problem: 'reference',
        detail: missing('base (label staging)'),
      },
      { name: 'version-2', action: 'create', newVersions: 1, problem: null },
      {
        name: 'version-9',
        action: 'conflict',
        newVersions: 1,
        problem: 'reference',
        detail: missing('base (version 9)'),
      },
      {
        name: 'nowhere',
        action: 'conflict',
        newVersions: 1,
        problem: 'reference',
        detail: missing('gone (label production)'),
      },
    ])
    expect((await importInto(client, document)).status).toBe(409)
    expect((await client.call(promptOperations.list, {})).body.items).toHaveLength(0)

    // Without the broken ones, every version that names base resolves to base's current body.
    const fine = {
      prompts: document.prompts.filter(
        (prompt) => !['staging-of-base', 'version-9', 'nowhere'].includes(prompt.name),
      ),
    }
    const done = await importInto(client, fine)
    expect(done.body).toMatchObject({ created: 62, conflicts: 0 })
    const [usesSeven] = await db()
      .select({ id: prompts.id })
      .from(prompts)
      .where(and(eq(prompts.ownerUserId, client.user!.id), eq(prompts.name, 'uses-7')))
    const compiled = await client.call(promptOperations.compile, {
      params: { id: usesSeven!.id },
      body: { values: {} },
    })
    expect(compiled.status).toBe(200)
    expect(compiled.body).toMatchObject({ versionNumber: 3, prompt: '3: Two.' })
  })
})

describe('the import with progress (Accept: application/x-ndjson)', () => {
  const streamed = async (client: TestClient, document: unknown, dryRun = false) => {
    const res = await client.call(
      promptOperations.importPrompts,
      { body: { document, teamId: null, dryRun } },
      { Accept: 'application/x-ndjson' },
    )
    expect(res.headers.get('content-type')).toBe('application/x-ndjson')
    // One line alone is JSON, which the test client parses.
    const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body)
    return {
      status: res.status,
      lines: text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    }
  }

  it('answers a line per prompt done, then the result; an error as the last line', async () => {
    const client = await newUser()
    const prompts = Array.from({ length: 4 }, (_, i) => ({
      name: `s${i}`,
      title: `S${i}`,
      versions: [{ body: 'x' }],
    }))
    const { status, lines } = await streamed(client, { prompts })
    expect(status).toBe(200)
    expect(lines.slice(0, -1)).toEqual([0, 1, 2, 3, 4].map((done) => ({ progress: { done, total: 4 } })))
    expect(lines.at(-1)).toEqual({ result: expect.objectContaining({ dryRun: false, created: 4 }) })

    const conflict = await streamed(client, {
      prompts: [{ name: 'x', title: 'X', versions: [{ body: ref('nowhere') }] }],
    })
    expect(conflict.lines.at(-1)).toEqual({
      status: 409,
      error: expect.objectContaining({ code: 'conflict', reason: 'import_conflicts' }),
    })
    // A file that is no export is refused in the last line too; a body that is not JSON before any line.
    const invalid = await streamed(client, { nothing: true })
    expect(invalid.lines).toEqual([{ status: 400, error: expect.objectContaining({ code: 'validation' }) }])
    const broken = await client.request('POST', '/api/v1/prompts/import', {
      rawBody: '{',
      headers: { Accept: 'application/x-ndjson' },
    })
    expect(broken.status).toBe(400)
    expect(errorOf(broken).code).toBe('validation')
  })
})

describe('webhooks of an import', () => {
  it('sends the events the app sends: the prompt, each further version, each label moved once', async () => {
    const client = await newUser()
    const endpoint = await client.call(webhookOperations.create, {
      body: {
        url: 'http://127.0.0.1:9/hook',
        events: ['prompt.created', 'prompt.version.created', 'prompt.label.moved'],
      },
    })
    expect(endpoint.status).toBe(201)
    const existing = await createPromptAs(client, { title: 'old', body: 'v1' })
    const events = async () =>
      (
        await db()
          .select({ type: webhookDeliveries.eventType, payload: webhookDeliveries.payload })
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.endpointId, endpoint.body.id))
          .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id))
      ).map((row) => {
        const body = JSON.parse(String(row.payload))
        return {
          type: row.type,
          prompt: body.data.prompt.name,
          ...body.data.version,
          ...(body.data.label && { label: body.data.label, to: body.data.toVersion }),
        }
      })
    const before = (await events()).length
    const document = {
      prompts: [
        {
          name: 'fresh',
          title: 'Fresh',
          versions: [
            { body: 'one' },
            { body: 'two', labels: ['staging'] },
            { body: 'three', labels: ['production'] },
          ],
        },
        { name: 'old', title: 'old', versions: [{ body: 'v1' }, { body: 'v2', labels: ['production'] }] },
      ],
    }
    expect((await importInto(client, document, true)).status).toBe(200)
    expect(await events()).toHaveLength(before)
    expect((await importInto(client, document)).status).toBe(200)
    const sent = (await events()).slice(before)
    // One import is one transaction: its deliveries share a created_at, so the rows have no order
    // of their own; compared in a fixed order.
    const inOrder = <T extends { type: string; prompt: string; version?: number; label?: string }>(
      list: T[],
    ) =>
      [...list].sort((a, b) =>
        `${a.prompt} ${a.type} ${a.version ?? ''} ${a.label ?? ''}`.localeCompare(
          `${b.prompt} ${b.type} ${b.version ?? ''} ${b.label ?? ''}`,
        ),
      )
    expect(
      inOrder(
        sent.map(({ type, prompt, version, labels, label, to }) => ({
          type,
          prompt,
          version,
          labels,
          label,
          to,
        })),
      ),
    ).toEqual(
      inOrder([
        { type: 'prompt.created', prompt: 'fresh', version: 1, labels: [], label: undefined, to: undefined },
        {
          type: 'prompt.version.created',
          prompt: 'fresh',
          version: 2,
          labels: ['staging'],
          label: undefined,
          to: undefined,
        },
        {
          type: 'prompt.version.created',
          prompt: 'fresh',
          version: 3,
          labels: ['production', 'latest'],
          label: undefined,
          to: undefined,
        },
        {
          type: 'prompt.label.moved',
          prompt: 'fresh',
          version: undefined,
          labels: undefined,
          label: 'staging',
          to: 2,
        },
        {
          type: 'prompt.label.moved',
          prompt: 'fresh',
          version: undefined,
          labels: undefined,
          label: 'production',
          to: 3,
        },
        {
          type: 'prompt.version.created',
          prompt: 'old',
          version: 2,
          labels: ['production', 'latest'],
          label: undefined,
          to: undefined,
        },
        {
          type: 'prompt.label.moved',
          prompt: 'old',
          version: undefined,
          labels: undefined,
          label: 'production',
          to: 2,
        },
      ]),
    )
    expect(existing.name).toBe('old')
  })
})

describe('the dependency table', () => {
  it('is written with every version saved (app and import) and goes with the prompt', async () => {
    const client = await newUser()
    const base = await createPromptAs(client, { title: 'base', body: 'Base' })
    const params = { id: base.id }
    const user = await createPromptAs(client, { title: 'user', body: 'none yet' })
    expect(await usedBy(client, base.id)).toEqual([])
    await client.call(promptOperations.update, {
      params: { id: user.id },
      body: {
        body: `now ${ref('base', 'version=1')}`,
      },
    })
    expect(await usedBy(client, base.id)).toEqual(['user'])
    // An older version still including it counts, as in Langfuse.
    await client.call(promptOperations.update, { params: { id: user.id }, body: { body: 'no longer' } })
    expect(await usedBy(client, base.id)).toEqual(['user'])
    expect((await client.call(promptOperations.delete, { params })).status).toBe(409)
    expect((await client.call(promptOperations.delete, { params: { id: user.id } })).status).toBe(204)
    const left = await db().select().from(promptDependencies).where(eq(promptDependencies.promptId, user.id))
    expect(left).toEqual([])
    expect(await usedBy(client, base.id)).toEqual([])
    expect((await client.call(promptOperations.delete, { params })).status).toBe(204)
  })

  it("migration 0210's backfill reads tags exactly as the parser does", async () => {
    const client = await newUser()
    const prompt = await createPromptAs(client, { title: 'holder', body: 'x' })
    const bodies = [
      `${ref('a')} ${ref('b', 'version=2')} ${ref('a', 'label=x=y')}`,
      '@@@langfusePrompt:name=c|version=0@@@ @@@langfusePrompt:label=x|name=d@@@',
      '@@@langfusePrompt:name=e|label=p|extra=1@@@ @@@langfusePrompt:name=|label=p@@@',
      '@@@langfusePrompt:name=f\n|label=p@@@ @@@langfusePrompt:name=g|label=p@@@',
      '@@@langfusePrompt:name=h|version=1234567890@@@ no tag',
    ]
    const ids: string[] = []
    for (const [index, body] of bodies.entries()) {
      const [row] = await db()
        .insert(promptVersions)
        .values({ promptId: prompt.id, versionNumber: index + 10, body })
        .returning({ id: promptVersions.id })
      ids.push(row!.id)
    }
    const migration = readFileSync(
      new URL('../../db/migrations/0210_prompt_dependencies.sql', import.meta.url),
      'utf8',
    )
    const backfill = migration.slice(migration.indexOf('INSERT INTO prompt_dependencies'))
    await db().execute(sql.raw(backfill.replace(/;\s*$/, ' ON CONFLICT DO NOTHING')))
    const found = await queryRows<{ version_id: string; name: string }>(
      db(),
      sql`SELECT version_id, name FROM prompt_dependencies WHERE prompt_id = ${prompt.id} ORDER BY name`,
    )
    const expected = bodies
      .flatMap((body, index) =>
        [...new Set(parseReferences(body).map((r) => r.name))].map((name) => ({
          version_id: ids[index],
          name,
        })),
      )
      .sort((a, b) => a.name.localeCompare(b.name))
    expect(found).toEqual(expected)
    expect(expected.map((row) => row.name)).toEqual(['a', 'b', 'g'])
  })
})
