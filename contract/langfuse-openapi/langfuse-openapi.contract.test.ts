import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ContractServer, startContractServer } from '../server.ts'
import { documentedOperations, documentedRoutes, undocumented } from './documented.ts'
// Made from langfuse-prompts.openapi.yml by openapi-typescript (contract/run.mjs, before this runs).
import type { components, paths } from './generated/langfuse-prompts.ts'

/**
 * A client generated from Langfuse's published OpenAPI document (openapi-typescript's types, called
 * through openapi-fetch, as a Langfuse user generating their own client would) calls every prompt
 * operation of the document against a started server. Each answer's status must be one the
 * operation documents and its body must match the documented schema; the values are checked too.
 * The client's requests are typed by the document: `tsc -p contract/langfuse-openapi` rejects any
 * request the document does not allow.
 */
type Prompt = components['schemas']['Prompt']

let server: ContractServer
let client: ReturnType<typeof createClient<paths>>
const called = new Set<string>()

beforeAll(async () => {
  server = await startContractServer()
  client = createClient<paths>({ baseUrl: server.base, headers: { Authorization: server.basicAuth } })
})
afterAll(async () => {
  await server?.stop()
})

/** Requires the answer to be documented for the operation, and gives its body. */
function documented<T>(
  operationId: string,
  answer: { data?: T; error?: unknown; response: Response },
  documentedAs?: number,
): T {
  called.add(operationId)
  const body = answer.data ?? answer.error
  expect(undocumented(operationId, { status: answer.response.status, body }, documentedAs)).toEqual([])
  return body as T
}

/** prompts_create: Langfuse answers 201 (its own server tests check it) where its document says 200. */
async function create(body: components['schemas']['CreatePromptRequest']): Promise<Prompt> {
  const answer = await client.POST('/api/public/v2/prompts', { body })
  expect(answer.response.status, JSON.stringify(answer.error)).toBe(201)
  return documented('prompts_create', answer, 200)
}

const get = (promptName: string, query: { version?: number; label?: string; resolve?: boolean } = {}) =>
  client.GET('/api/public/v2/prompts/{promptName}', { params: { path: { promptName }, query } })

describe("Langfuse's OpenAPI document, through a generated client", () => {
  it('creates text and chat prompts (prompts_create)', async () => {
    const first = await create({
      name: 'contract/greeting',
      prompt: 'Hello {{name}}!\n',
      config: { temperature: 0.2 },
      labels: ['production'],
      tags: ['contract'],
      commitMessage: 'first words',
    })
    expect(first).toMatchObject({
      name: 'contract/greeting',
      type: 'text',
      prompt: 'Hello {{name}}!\n',
      version: 1,
      config: { temperature: 0.2 },
      labels: ['production', 'latest'],
      tags: ['contract'],
      commitMessage: 'first words',
    })
    const second = await create({
      name: 'contract/greeting',
      type: 'text',
      prompt: 'Hi {{name}}, from version 2.',
      labels: ['staging'],
    })
    expect(second).toMatchObject({ version: 2, labels: ['staging', 'latest'], tags: ['contract'] })

    const messages = [
      { role: 'system', content: 'You answer questions.' },
      { type: 'placeholder' as const, name: 'history' },
      { role: 'user', content: '{{question}}', type: 'chatmessage' as const },
    ]
    const chat = await create({
      name: 'contract/chat',
      type: 'chat',
      prompt: messages,
      labels: ['production'],
    })
    // The document lets a message say `type: chatmessage`; Langfuse keeps a message's role and
    // content only, and so does Promptfolio.
    expect(chat).toMatchObject({
      name: 'contract/chat',
      type: 'chat',
      prompt: [messages[0], messages[1], { role: 'user', content: '{{question}}' }],
      version: 1,
    })
  })

  it('refuses what Langfuse refuses, with a documented status (prompts_create)', async () => {
    const reserved = await client.POST('/api/public/v2/prompts', { body: { name: 'new', prompt: 'x' } })
    expect(reserved.response.status).toBe(400)
    documented('prompts_create', reserved)

    const stranger = await createClient<paths>({
      baseUrl: server.base,
      headers: { Authorization: `Basic ${Buffer.from('pk-pf-nobody:sk-pf-nothing').toString('base64')}` },
    }).GET('/api/public/v2/prompts', {})
    expect(stranger.response.status).toBe(401)
    documented('prompts_list', stranger)
  })

  it('gets a prompt by label, by version and the production one by default (prompts_get)', async () => {
    const production = documented('prompts_get', await get('contract/greeting'))
    expect(production).toMatchObject({ version: 1, prompt: 'Hello {{name}}!\n', resolutionGraph: null })
    const staging = documented('prompts_get', await get('contract/greeting', { label: 'staging' }))
    expect(staging).toMatchObject({ version: 2, labels: ['staging', 'latest'] })
    const first = documented('prompts_get', await get('contract/greeting', { version: 1 }))
    expect(first).toMatchObject({ version: 1, labels: ['production'], config: { temperature: 0.2 } })

    const missing = await get('contract/greeting', { label: 'nowhere' })
    expect(missing.response.status).toBe(404)
    documented('prompts_get', missing)
  })

  it('resolves an included prompt, and leaves it with resolve=false (prompts_get)', async () => {
    await create({ name: 'contract/footer', prompt: '-- sent from Promptfolio', labels: ['production'] })
    const tag = '@@@langfusePrompt:name=contract/footer|label=production@@@'
    await create({ name: 'contract/letter', prompt: `Dear {{name}}\n${tag}`, labels: ['production'] })

    const resolved = documented('prompts_get', await get('contract/letter'))
    expect(resolved).toMatchObject({ prompt: 'Dear {{name}}\n-- sent from Promptfolio' })
    // The document types the graph as an open object; Langfuse's answer has a root and, per
    // including version, the versions it included.
    const graph = resolved.resolutionGraph as {
      root: { name: string; version: number }
      dependencies: Record<string, { name: string; version: number }[]>
    }
    expect(graph.root).toMatchObject({ name: 'contract/letter', version: 1 })
    expect(Object.values(graph.dependencies)).toEqual([
      [expect.objectContaining({ name: 'contract/footer', version: 1 })],
    ])
    const raw = documented('prompts_get', await get('contract/letter', { resolve: false }))
    expect(raw).toMatchObject({ prompt: `Dear {{name}}\n${tag}`, resolutionGraph: null })
  })

  it('lists prompts with filters and pages (prompts_list)', async () => {
    const all = documented('prompts_list', await client.GET('/api/public/v2/prompts', {}))
    expect(all.data.map((prompt) => prompt.name).sort()).toEqual([
      'contract/chat',
      'contract/footer',
      'contract/greeting',
      'contract/letter',
    ])
    expect(all.data.find((prompt) => prompt.name === 'contract/greeting')).toMatchObject({
      type: 'text',
      versions: [1, 2],
      labels: ['latest', 'production', 'staging'],
      tags: ['contract'],
      lastConfig: {},
    })
    expect(all.meta).toMatchObject({ page: 1, totalItems: 4, totalPages: 1 })

    const filtered = await client.GET('/api/public/v2/prompts', {
      params: { query: { name: 'contract/greeting', label: 'staging', tag: 'contract' } },
    })
    expect(documented('prompts_list', filtered).data).toMatchObject([
      { name: 'contract/greeting', versions: [2] },
    ])

    const page = await client.GET('/api/public/v2/prompts', { params: { query: { page: 2, limit: 3 } } })
    expect(documented('prompts_list', page).meta).toEqual({ page: 2, limit: 3, totalItems: 4, totalPages: 2 })

    const updatedSince = await client.GET('/api/public/v2/prompts', {
      params: { query: { fromUpdatedAt: new Date(Date.now() + 60_000).toISOString() } },
    })
    expect(documented('prompts_list', updatedSince).data).toEqual([])
  })

  it('moves labels to a version and reads them back (promptVersion_update)', async () => {
    const route = '/api/public/v2/prompts/{name}/versions/{version}' as const
    const moved = await client.PATCH(route, {
      params: { path: { name: 'contract/greeting', version: 2 } },
      body: { newLabels: ['production', 'reviewed'] },
    })
    const version = documented('promptVersion_update', moved)
    expect(version.version).toBe(2)
    // New labels join the version's own (here staging and latest).
    expect([...version.labels].sort()).toEqual(['latest', 'production', 'reviewed', 'staging'])
    expect(documented('prompts_get', await get('contract/greeting'))).toMatchObject({ version: 2 })

    const reserved = await client.PATCH(route, {
      params: { path: { name: 'contract/greeting', version: 1 } },
      body: { newLabels: ['latest'] },
    })
    expect(reserved.response.status).toBe(400)
    documented('promptVersion_update', reserved)
    const missing = await client.PATCH(route, {
      params: { path: { name: 'contract/greeting', version: 9 } },
      body: { newLabels: ['staging'] },
    })
    expect(missing.response.status).toBe(404)
    documented('promptVersion_update', missing)
  })

  it('deletes a version, a label and a whole prompt, and refuses to break an include (prompts_delete)', async () => {
    const route = '/api/public/v2/prompts/{promptName}' as const
    const included = await client.DELETE(route, { params: { path: { promptName: 'contract/footer' } } })
    expect(included.response.status).toBe(400)
    documented('prompts_delete', included)
    expect((await get('contract/letter')).response.status).toBe(200)

    const byVersion = await client.DELETE(route, {
      params: { path: { promptName: 'contract/greeting' }, query: { version: 1 } },
    })
    expect(byVersion.response.status).toBe(204)
    documented('prompts_delete', byVersion)
    expect((await get('contract/greeting', { version: 1 })).response.status).toBe(404)

    const byLabel = await client.DELETE(route, {
      params: { path: { promptName: 'contract/chat' }, query: { label: 'production' } },
    })
    expect(byLabel.response.status).toBe(204)
    documented('prompts_delete', byLabel)

    const whole = await client.DELETE(route, { params: { path: { promptName: 'contract/greeting' } } })
    expect(whole.response.status).toBe(204)
    documented('prompts_delete', whole)
    const gone = await get('contract/greeting', { label: 'latest' })
    expect(gone.response.status).toBe(404)
  })

  it('called every prompt operation of the document', () => {
    expect([...called].sort()).toEqual(documentedOperations)
  })
})

describe("Promptfolio's own OpenAPI document", () => {
  it("declares every prompt operation of Langfuse's, with its query parameters and the key pair", async () => {
    const ours = (await (await fetch(`${server.base}/api/v1/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<string, { security?: unknown; parameters?: { name: string; in: string }[] }>
      >
    }
    const declared = Object.entries(ours.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        route: `${method.toUpperCase()} ${path.replace(/\{\w+\}/g, '{}')}`,
        operation,
      })),
    )
    for (const { route, query } of documentedRoutes) {
      const found = declared.find((candidate) => candidate.route === route)
      expect(found, route).toBeDefined()
      expect(found!.operation.security, route).toEqual([{ keyPair: [] }])
      const names = (found!.operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name)
      expect(names, route).toEqual(expect.arrayContaining(query))
    }
  })
})
