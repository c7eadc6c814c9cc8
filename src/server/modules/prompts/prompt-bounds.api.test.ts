import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { type Operation, operationUrl } from '../../../domain/api/operation.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { MAX_CONFIG_DEPTH } from '../../../domain/prompt-names.ts'
import { MAX_REFERENCE_TAGS, MAX_RESOLVED_LENGTH } from '../../../domain/prompt-references.ts'
import { errorOf, keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/**
 * Bounds on what a version may hold, at every door that writes one: references that would expand
 * to megabytes (a 400 on every read that resolves when a later change makes them too big), and a
 * config nested too deep.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const ref = (name: string, selector = 'label=production') => `@@@langfusePrompt:name=${name}|${selector}@@@`
const times = (text: string, count: number) => Array.from({ length: count }, () => text).join('\n')

// lolc is 1,000 characters; lolb includes it the most times a body may (50,000 characters
// resolved); 21 inclusions of lolb pass MAX_RESOLVED_LENGTH though every stored body is small.
const LOLC = 'L'.repeat(1000)
const LOLB = times(ref('lolc', 'version=1'), MAX_REFERENCE_TAGS)
const LOLA = times(ref('lolb'), 21)

function signedIn(locale = 'en'): Promise<TestClient> {
  return TestClient.signedUp(testApp, { locale })
}

/** The Langfuse routes with a read-write key of the client's personal space. */
async function langfuse(client: TestClient) {
  const key = (await client.call(apiKeyOperations.create, { body: { name: 'bounds', scope: 'read_write' } }))
    .body
  const headers = {
    Authorization: keyPairAuthorization(key),
    'Content-Type': 'application/json',
  }
  const answer = async (res: Response) => ({
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
  })
  return {
    get: async (path: string) =>
      answer(await testApp.app.request(`/api/public/v2/prompts/${path}`, { headers })),
    /** `body` as an object, or as JSON text already. */
    create: async (body: unknown) =>
      answer(
        await testApp.app.request('/api/public/v2/prompts', {
          method: 'POST',
          headers,
          body: typeof body === 'string' ? body : JSON.stringify(body),
        }),
      ),
  }
}

describe('reference expansion bounds', () => {
  it('refuses at every door a body with too many references or one that would resolve too large', async () => {
    const client = await signedIn()
    await createPromptAs(client, { title: 'lolc', body: LOLC })
    await createPromptAs(client, { title: 'lolb', body: LOLB })

    const tooMany = await client.call(promptOperations.create, {
      body: { title: 'lolx', body: times(ref('lolc', 'version=1'), MAX_REFERENCE_TAGS + 1) },
    })
    expect(tooMany.status).toBe(400)
    expect(errorOf(tooMany).fields?.body).toBe(
      'lolx includes other prompts 51 times; a text may hold at most 50 references.',
    )

    const created = await client.call(promptOperations.create, { body: { title: 'lola', body: LOLA } })
    expect(created.status).toBe(400)
    expect(errorOf(created).fields?.body).toBe(
      `With its references resolved the text would be longer than ${MAX_RESOLVED_LENGTH.toLocaleString('en')} characters: lola → lolb.`,
    )
    const german = await (await signedIn('de')).call(promptOperations.create, {
      body: { title: 'x', body: times(ref('nowhere'), 60) },
    })
    expect(errorOf(german).fields?.body).toBe(
      'x bindet 60-mal andere Prompts ein; ein Text darf höchstens 50 Verweise enthalten.',
    )

    // Saving a new version of an existing prompt.
    const lola = await createPromptAs(client, { title: 'lola', body: 'small' })
    const params = { id: lola.id }
    const saved = await client.call(promptOperations.update, { params, body: { body: LOLA } })
    expect(saved.status).toBe(400)
    expect(errorOf(saved).message).toContain('lola → lolb')
    expect((await client.call(promptOperations.get, { params })).body.versionCount).toBe(1)

    // The Langfuse create, in Langfuse's envelope.
    const api = await langfuse(client)
    const viaLangfuse = await api.create({ name: 'lolz', type: 'text', prompt: LOLA })
    expect(viaLangfuse.status).toBe(400)
    expect(viaLangfuse.body.message).toContain('lolz → lolb')
    expect((await api.get('lolz')).status).toBe(404)

    // The import: a conflict naming the chain, and nothing imported.
    const document = { prompts: [{ name: 'lold', title: 'lold', versions: [{ body: LOLA }] }] }
    const preview = await client.call(promptOperations.importPrompts, {
      body: { document, teamId: null, dryRun: true },
    })
    expect(preview.body.items).toEqual([
      expect.objectContaining({ name: 'lold', action: 'conflict', problem: 'reference' }),
    ])
    expect(preview.body.items[0]!.detail).toContain('lold → lolb')
    const imported = await client.call(promptOperations.importPrompts, {
      body: { document, teamId: null, dryRun: false },
    })
    expect(imported.status).toBe(409)
  })

  it('answers 400 on fetch, compile and resolved when a later version of an included prompt makes the text too large', async () => {
    const client = await signedIn()
    await createPromptAs(client, { title: 'lolc', body: LOLC })
    const lolb = await createPromptAs(client, { title: 'lolb', body: 'b' })
    const lola = await createPromptAs(client, { title: 'lola', body: LOLA })
    const api = await langfuse(client)
    expect((await api.get('lola')).body.prompt).toBe(times('b', 21))

    // lolb's new version becomes current (production): lola would now resolve past the bound.
    expect(
      (await client.call(promptOperations.update, { params: { id: lolb.id }, body: { body: LOLB } })).status,
    ).toBe(200)
    const message = `With its references resolved the text would be longer than ${MAX_RESOLVED_LENGTH.toLocaleString('en')} characters: lola → lolb.`

    const fetched = await api.get('lola')
    expect(fetched.status).toBe(400)
    expect(fetched.body).toEqual({ message, error: expect.any(String) })
    const compiled = await client.call(promptOperations.compile, { params: { id: lola.id }, body: {} })
    expect(compiled.status).toBe(400)
    expect(errorOf(compiled).message).toBe(message)
    const resolved = await client.call(promptOperations.resolvedVersion, {
      params: { id: lola.id, versionId: lola.currentVersionId! },
    })
    expect(resolved.status).toBe(400)
    expect(errorOf(resolved).message).toBe(message)

    // The raw text still reads, and the server goes on answering.
    const raw = await api.get('lola?resolve=false')
    expect(raw.status).toBe(200)
    expect(raw.body.prompt).toBe(LOLA)
    expect((await api.get('lolb')).body.prompt).toBe(times(LOLC, MAX_REFERENCE_TAGS))
    expect((await testApp.app.request('/api/health')).status).toBe(200)
  })
})

describe('config depth', () => {
  /** A config of `levels` levels of objects (the config itself the first), as JSON text. */
  const nested = (levels: number) => `{"top":${'{"a":'.repeat(levels - 1)}1${'}'.repeat(levels)}`
  const deep = nested(5000)
  const tooDeep = 'Config may be nested at most 20 levels deep'
  /** A JSON request whose body holds the `config` JSON text as it is (too deep to stringify). */
  const withConfig = (fields: Record<string, unknown>, config: string) =>
    `${JSON.stringify(fields).slice(0, -1)},"config":${config}}`
  const send = (client: TestClient, operation: Operation, rawBody: string, params?: Record<string, string>) =>
    client.request(operation.spec.method, operationUrl(operation.spec, params), { rawBody })

  it('refuses a config nested deeper than the bound with a 400 at every door, and takes one at the bound', async () => {
    expect(MAX_CONFIG_DEPTH).toBe(20)
    const client = await signedIn()

    const created = await send(
      client,
      promptOperations.create,
      withConfig({ title: 'deep', body: 'x' }, deep),
    )
    expect(created.status).toBe(400)
    expect(errorOf(created).fields?.config).toBe(tooDeep)
    const german = await send(
      await signedIn('de'),
      promptOperations.create,
      withConfig({ title: 'deep', body: 'x' }, nested(MAX_CONFIG_DEPTH + 1)),
    )
    expect(errorOf(german).fields?.config).toBe(
      'Die Konfiguration darf höchstens 20 Ebenen tief verschachtelt sein',
    )

    const atBound = JSON.parse(nested(MAX_CONFIG_DEPTH)) as Record<string, unknown>
    const prompt = await createPromptAs(client, { title: 'fine', body: 'x', config: atBound })
    expect(prompt.currentVersion?.config).toEqual(atBound)
    const saved = await send(client, promptOperations.update, withConfig({ body: 'y' }, deep), {
      id: prompt.id,
    })
    expect(saved.status).toBe(400)
    expect(errorOf(saved).fields?.config).toBe(tooDeep)

    const api = await langfuse(client)
    const viaLangfuse = await api.create(withConfig({ name: 'deep', type: 'text', prompt: 'x' }, deep))
    expect(viaLangfuse.status).toBe(400)
    expect(JSON.stringify(viaLangfuse.body)).toContain(tooDeep)

    const document = `{"prompts":[{"name":"deep","title":"deep","versions":[${withConfig({ body: 'x' }, deep)}]}]}`
    const imported = await send(
      client,
      promptOperations.importPrompts,
      `{"teamId":null,"dryRun":false,"document":${document}}`,
    )
    expect(imported.status).toBe(400)
    expect(JSON.stringify(imported.body)).toContain(tooDeep)

    // Nothing was written: the prompt keeps its one version, and no other prompt exists.
    expect((await client.call(promptOperations.get, { params: { id: prompt.id } })).body.versionCount).toBe(1)
    expect((await api.get('deep')).status).toBe(404)
  })
})
