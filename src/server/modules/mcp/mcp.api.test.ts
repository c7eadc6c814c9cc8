import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import type { OperationInput } from '../../../domain/api/operation.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import { MCP_PAGE_SIZE, ORIGINAL_ROLE_META } from '../../../domain/mcp.ts'
import { MCP_PATH } from '../../../domain/mcp-clients.ts'
import { auditLog, prompts, promptVersions } from '../../db/schema/index.ts'
import { keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * Contract tests: the official MCP SDK's client (`Client` over `StreamableHTTPClientTransport`),
 * unchanged, against the real server on a real port, on both databases.
 */
let testApp: TestApp
let server: ReturnType<typeof serve>
let url: URL
let ownerKey: CreatedApiKey
let readKey: CreatedApiKey
let strangerKey: CreatedApiKey
let teamKey: CreatedApiKey
let manyKey: CreatedApiKey
let admin: TestClient
let teamId: string
let offsetDays = 0
const now = () => new Date(Date.now() + offsetDays * 24 * 60 * 60 * 1000)
const clients: Client[] = []

beforeAll(async () => {
  testApp = await createTestApp({ plansEnabled: true }, { now })
  server = serve({ fetch: testApp.app.fetch, port: 0, hostname: '127.0.0.1' })
  await new Promise<void>((resolve) => server.once('listening', () => resolve()))
  url = new URL(MCP_PATH, `http://127.0.0.1:${(server.address() as AddressInfo).port}`)
  await new TestClient(testApp).signUp()
  const owner = new TestClient(testApp)
  const stranger = new TestClient(testApp)
  const many = new TestClient(testApp)
  admin = new TestClient(testApp)
  const ownerUser = await owner.signUp()
  await stranger.signUp()
  const manyUser = await many.signUp()
  const adminUser = await admin.signUp()
  teamId = await insertTeam(testApp.database.db, 'Ops', [
    { userId: adminUser.id, role: 'admin' },
    { userId: ownerUser.id },
  ])
  const key = async (client: TestClient, body: OperationInput<typeof apiKeyOperations.create>['body']) =>
    (await client.call(apiKeyOperations.create, { body })).body
  ownerKey = await key(owner, { name: 'agent', scope: 'read_write' })
  readKey = await key(owner, { name: 'reader', scope: 'read' })
  strangerKey = await key(stranger, { name: 'stranger', scope: 'read_write' })
  manyKey = await key(many, { name: 'many', scope: 'read' })
  teamKey = await key(admin, { name: 'team', scope: 'read_write', teamId })
  await seedPrompts(manyUser.id, MCP_PAGE_SIZE + 3)
})
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()))
  ;(server as unknown as { closeAllConnections(): void }).closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
  await testApp.close()
})

/** `count` personal prompts of one user, each with a production version (fixture rows). */
async function seedPrompts(userId: string, count: number) {
  const db = testApp.database.db
  const rows = await db
    .insert(prompts)
    .values(
      Array.from({ length: count }, (_, index) => ({
        ownerUserId: userId,
        visibility: 'private' as const,
        name: `seed/${String(index).padStart(3, '0')}`,
        title: `Seed ${index}`,
        type: 'text' as const,
        tags: [],
      })),
    )
    .returning({ id: prompts.id })
  const versions = await db
    .insert(promptVersions)
    .values(rows.map((row) => ({ promptId: row.id, versionNumber: 1, body: 'Seed {{n}}', config: {} })))
    .returning({ id: promptVersions.id, promptId: promptVersions.promptId })
  for (const version of versions) {
    await db.update(prompts).set({ currentVersionId: version.id }).where(eq(prompts.id, version.promptId))
  }
}

/** An SDK client connected with `authorization` (Bearer with the secret by default). */
async function connect(key: CreatedApiKey, authorization = `Bearer ${key.secretKey}`, locale = 'en') {
  const client = new Client({ name: 'promptfolio-test', version: '1.0.0' })
  await client.connect(
    new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: authorization, 'Accept-Language': locale } },
    }),
  )
  clients.push(client)
  return client
}
const textOf = (result: unknown) =>
  (result as CallToolResult).content.map((c) => (c.type === 'text' ? c.text : '')).join('')
async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  if (result.isError) throw new Error(`tool ${name} refused: ${textOf(result)}`)
  return JSON.parse(textOf(result))
}
async function refusalOf(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(McpError)
  return error as McpError
}

describe('the prompts capability', () => {
  let client: Client
  beforeAll(async () => {
    client = await connect(ownerKey)
    await callTool(client, 'create_prompt_version', {
      name: 'support/greeting',
      prompt: 'Hello {{customer}}, your order {{order}} ships in {{days}} days. {{note}}',
      labels: ['production'],
      variables: [
        { name: 'customer', required: true, description: 'Who we write to' },
        { name: 'order', required: true },
        { name: 'days', type: 'number', default: 3 },
      ],
      commitMessage: 'First greeting',
    })
    await callTool(client, 'create_prompt_version', {
      name: 'support/greeting',
      prompt: 'Hi {{customer}}!',
      labels: ['staging'],
      variables: [{ name: 'customer', required: true }],
    })
    await callTool(client, 'create_prompt_version', {
      name: 'support/chat',
      type: 'chat',
      prompt: [
        { role: 'system', content: 'You are a {{persona}} agent.' },
        { type: 'placeholder', name: 'history' },
        { role: 'user', content: '{{question}}' },
      ],
      labels: ['production'],
      variables: [{ name: 'persona', type: 'enum', values: ['calm', 'brisk'], required: true }],
    })
  })

  it('lists the prompts with one argument per declared variable, its description and required flag', async () => {
    const { prompts: listed, nextCursor } = await client.listPrompts()
    expect(nextCursor).toBeUndefined()
    expect(listed.map((prompt) => prompt.name)).toEqual(['support/chat', 'support/greeting'])
    const greeting = listed.find((prompt) => prompt.name === 'support/greeting')!
    expect(greeting.arguments).toEqual([
      { name: 'customer', description: 'Who we write to', required: true },
      { name: 'order', required: true },
      { name: 'days', description: 'A number · Default: 3', required: false },
      { name: 'note', required: false },
    ])
    const chat = listed.find((prompt) => prompt.name === 'support/chat')!
    expect(chat.arguments).toEqual([
      { name: 'persona', description: 'One of: calm, brisk', required: true },
      { name: 'question', required: false },
      expect.objectContaining({ name: 'history', required: false }),
    ])
  })

  it('pages with the cursor, every prompt once, in name order', async () => {
    const many = await connect(manyKey, keyPairAuthorization(manyKey))
    const first = await many.listPrompts()
    expect(first.prompts).toHaveLength(MCP_PAGE_SIZE)
    expect(first.nextCursor).toBeTruthy()
    const second = await many.listPrompts({ cursor: first.nextCursor })
    expect(second.prompts).toHaveLength(3)
    expect(second.nextCursor).toBeUndefined()
    const names = [...first.prompts, ...second.prompts].map((prompt) => prompt.name)
    expect(new Set(names).size).toBe(MCP_PAGE_SIZE + 3)
    expect(names).toEqual([...names].sort())
    const bad = await refusalOf(many.listPrompts({ cursor: 'not a cursor' }))
    expect(bad.code).toBe(ErrorCode.InvalidParams)
    expect(bad.message).toContain('Invalid cursor format')
  })

  it('gets production by default, compiled with typed arguments (numbers coerced, defaults used)', async () => {
    const result = await client.getPrompt({
      name: 'support/greeting',
      arguments: { customer: 'Ada', order: 'A-17' },
    })
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'text', text: 'Hello Ada, your order A-17 ships in 3 days. ' } },
    ])
  })

  it('gets by label and by version', async () => {
    const staging = await client.getPrompt({
      name: 'support/greeting',
      arguments: { label: 'staging', customer: 'Bo' },
    })
    expect(staging.messages[0]!.content).toEqual({ type: 'text', text: 'Hi Bo!' })
    const byVersion = await client.getPrompt({
      name: 'support/greeting',
      arguments: { version: '1', customer: 'Cy', order: '9', days: '5' },
    })
    expect(byVersion.messages[0]!.content).toMatchObject({ text: 'Hello Cy, your order 9 ships in 5 days. ' })
    const missing = await refusalOf(
      client.getPrompt({ name: 'support/greeting', arguments: { version: '7' } }),
    )
    expect(missing.code).toBe(ErrorCode.InvalidParams)
    expect(missing.message).toContain('No prompt "support/greeting" with version 7')
  })

  it('refuses a missing required value and a value of the wrong type, naming the variable', async () => {
    const missing = await refusalOf(
      client.getPrompt({ name: 'support/greeting', arguments: { customer: 'Ada' } }),
    )
    expect(missing.code).toBe(ErrorCode.InvalidParams)
    expect(missing.message).toMatch(/order/)
    const wrongType = await refusalOf(
      client.getPrompt({
        name: 'support/greeting',
        arguments: { customer: 'Ada', order: '1', days: 'soon' },
      }),
    )
    expect(wrongType.code).toBe(ErrorCode.InvalidParams)
    expect(wrongType.message).toMatch(/days/)
  })

  it('answers in the language the client asks for', async () => {
    const german = await connect(ownerKey, `Bearer ${ownerKey.secretKey}`, 'de')
    const missing = await refusalOf(german.getPrompt({ name: 'nope' }))
    expect(missing.message).toContain('Kein Prompt „nope“')
  })

  it('maps a chat prompt to MCP messages and fills the placeholder from a JSON list of messages', async () => {
    const history = [
      { role: 'user', content: 'Where is my parcel?' },
      { role: 'assistant', content: 'It left the depot.' },
    ]
    const result = await client.getPrompt({
      name: 'support/chat',
      arguments: { persona: 'calm', question: 'When will it arrive?', history: JSON.stringify(history) },
    })
    expect(result.messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'You are a calm agent.', _meta: { [ORIGINAL_ROLE_META]: 'system' } },
      },
      { role: 'user', content: { type: 'text', text: 'Where is my parcel?' } },
      { role: 'assistant', content: { type: 'text', text: 'It left the depot.' } },
      { role: 'user', content: { type: 'text', text: 'When will it arrive?' } },
    ])
    const withoutHistory = await client.getPrompt({
      name: 'support/chat',
      arguments: { persona: 'brisk', question: 'Hi' },
    })
    expect(withoutHistory.messages).toHaveLength(2)
    const notAList = await refusalOf(
      client.getPrompt({ name: 'support/chat', arguments: { persona: 'calm', history: '{"role":"user"}' } }),
    )
    expect(notAList.code).toBe(ErrorCode.InvalidParams)
    expect(notAList.message).toContain('"history" must be a JSON list of messages')
    const notInEnum = await refusalOf(
      client.getPrompt({ name: 'support/chat', arguments: { persona: 'loud' } }),
    )
    expect(notInEnum.message).toMatch(/persona/)
  })
})

describe('the tools', () => {
  let client: Client
  beforeAll(async () => {
    client = await connect(ownerKey, keyPairAuthorization(ownerKey))
    await callTool(client, 'create_prompt_version', {
      name: 'tools/summary',
      prompt: 'Summarize {{text}}',
      labels: ['production'],
      tags: ['writing'],
      variables: [{ name: 'text', required: true, description: 'What to summarize' }],
    })
    await callTool(client, 'create_prompt_version', {
      name: 'tools/translate',
      prompt: 'Translate {{text}}',
      labels: ['production', 'beta'],
      tags: ['language'],
    })
  })

  it('lists the tools a read-write key may call, with JSON schemas from the operations', async () => {
    const { tools } = await client.listTools()
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_prompts',
      'get_prompt',
      'create_prompt_version',
      'move_label',
    ])
    const create = tools.find((tool) => tool.name === 'create_prompt_version')!
    expect(create.inputSchema.required).toEqual(expect.arrayContaining(['name', 'prompt']))
    expect(Object.keys(create.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['labels', 'commitMessage', 'variables', 'tags', 'config']),
    )
  })

  it('list_prompts filters by search, tag and label and pages with a cursor', async () => {
    const bySearch = await callTool(client, 'list_prompts', { search: 'summ' })
    expect(bySearch.items.map((item: { name: string }) => item.name)).toEqual(['tools/summary'])
    expect(bySearch.items[0]).toMatchObject({
      productionVersion: 1,
      labels: ['latest', 'production'],
      tags: ['writing'],
      arguments: [{ name: 'text', description: 'What to summarize', required: true }],
    })
    const byTag = await callTool(client, 'list_prompts', { tag: 'language' })
    expect(byTag.items.map((item: { name: string }) => item.name)).toEqual(['tools/translate'])
    const byLabel = await callTool(client, 'list_prompts', { label: 'beta' })
    expect(byLabel.items.map((item: { name: string }) => item.name)).toEqual(['tools/translate'])
    const first = await callTool(client, 'list_prompts', { search: 'tools/', limit: 1 })
    expect(first.items).toHaveLength(1)
    const second = await callTool(client, 'list_prompts', {
      search: 'tools/',
      limit: 1,
      cursor: first.nextCursor,
    })
    expect(second.items.map((item: { name: string }) => item.name)).toEqual(['tools/translate'])
    expect(second.nextCursor).toBeNull()
  })

  it('get_prompt compiles, or answers the raw template with its declared variables', async () => {
    const compiled = await callTool(client, 'get_prompt', { name: 'tools/summary', values: { text: 'this' } })
    expect(compiled).toEqual({ name: 'tools/summary', version: 1, type: 'text', prompt: 'Summarize this' })
    const raw = await callTool(client, 'get_prompt', { name: 'tools/summary', raw: true })
    expect(raw).toMatchObject({
      name: 'tools/summary',
      version: 1,
      prompt: 'Summarize {{text}}',
      labels: ['production', 'latest'],
      variables: [expect.objectContaining({ name: 'text', required: true })],
    })
    const refused = (await client.callTool({
      name: 'get_prompt',
      arguments: { name: 'tools/summary' },
    })) as CallToolResult
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain('text')
    const both = (await client.callTool({
      name: 'get_prompt',
      arguments: { name: 'tools/summary', version: 1, label: 'production' },
    })) as CallToolResult
    expect(both.isError).toBe(true)
  })

  it('create_prompt_version adds a version with labels and a commit message, audited as the key', async () => {
    const created = await callTool(client, 'create_prompt_version', {
      name: 'tools/summary',
      prompt: 'Summarize {{text}} briefly',
      labels: ['staging'],
      commitMessage: 'Shorter',
    })
    expect(created).toMatchObject({ version: 2, labels: ['staging', 'latest'], commitMessage: 'Shorter' })
    const refused = (await client.callTool({
      name: 'create_prompt_version',
      arguments: { name: 'tools/summary', type: 'chat', prompt: [{ role: 'user', content: 'x' }] },
    })) as CallToolResult
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain('type of a prompt cannot change')
    const invalid = (await client.callTool({
      name: 'create_prompt_version',
      arguments: { name: 'tools/summary', prompt: 'x', labels: ['Not A Label'] },
    })) as CallToolResult
    expect(invalid.isError).toBe(true)
    expect(textOf(invalid)).toContain('Labels are 1 to 36 lowercase letters')
  })

  it('move_label moves a label through the shared label rules, audited and attributed to the key', async () => {
    const moved = await callTool(client, 'move_label', {
      name: 'tools/summary',
      version: 2,
      label: 'production',
    })
    expect(moved).toMatchObject({ version: 2, labels: expect.arrayContaining(['production']) })
    const fetched = await client.getPrompt({ name: 'tools/summary', arguments: { text: 'it' } })
    expect(fetched.messages[0]!.content).toMatchObject({ text: 'Summarize it briefly' })
    const entries = await testApp.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'label.moved'), eq(auditLog.actorApiKeyId, ownerKey.id)))
    expect(entries.map((entry) => entry.after)).toContainEqual({ label: 'production', version: 2 })
    const latest = (await client.callTool({
      name: 'move_label',
      arguments: { name: 'tools/summary', version: 1, label: 'latest' },
    })) as CallToolResult
    expect(latest.isError).toBe(true)
    const unknown = (await client.callTool({
      name: 'move_label',
      arguments: { name: 'tools/summary', version: 9, label: 'beta' },
    })) as CallToolResult
    expect(textOf(unknown)).toContain('No prompt "tools/summary" with version 9')
  })

  it('refuses to move a protected label with a key, as every door does', async () => {
    const team = await connect(teamKey)
    await callTool(team, 'create_prompt_version', { name: 'guarded', prompt: 'v1', labels: ['production'] })
    await callTool(team, 'create_prompt_version', { name: 'guarded', prompt: 'v2' })
    expect(
      (
        await admin.call(promptLabelOperations.setProtectedLabels, {
          params: { teamId },
          body: { labels: ['production'] },
        })
      ).status,
    ).toBe(200)
    const refused = (await team.callTool({
      name: 'move_label',
      arguments: { name: 'guarded', version: 2, label: 'production' },
    })) as CallToolResult
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toContain('API keys never move the protected label "production"')
    const [row] = await testApp.database.db
      .select({ version: promptVersions.versionNumber })
      .from(prompts)
      .innerJoin(promptVersions, eq(promptVersions.id, prompts.currentVersionId))
      .where(eq(prompts.name, 'guarded'))
    expect(row?.version).toBe(1)
  })

  it('offers a read key no write tool and refuses one called anyway', async () => {
    const reader = await connect(readKey)
    const { tools } = await reader.listTools()
    expect(tools.map((tool) => tool.name)).toEqual(['list_prompts', 'get_prompt'])
    const refused = (await reader.callTool({
      name: 'create_prompt_version',
      arguments: { name: 'sneaky', prompt: 'x' },
    })) as CallToolResult
    expect(refused.isError).toBe(true)
    expect(textOf(refused)).toBe('This API key may only read')
    const move = (await reader.callTool({
      name: 'move_label',
      arguments: { name: 'tools/summary', version: 1, label: 'production' },
    })) as CallToolResult
    expect(move.isError).toBe(true)
    expect((await reader.listPrompts()).prompts.map((prompt) => prompt.name)).not.toContain('sneaky')
    const unknown = await refusalOf(reader.callTool({ name: 'drop_everything', arguments: {} }))
    expect(unknown.code).toBe(ErrorCode.InvalidParams)
  })
})

describe('keys and spaces', () => {
  it('refuses a wrong, mismatched or missing key before any MCP message', async () => {
    const attempts = [
      `Bearer sk-pf-${'x'.repeat(32)}`,
      `Bearer ${ownerKey.publicKey}`,
      `Basic ${Buffer.from(`${strangerKey.publicKey}:${ownerKey.secretKey}`).toString('base64')}`,
      '',
    ]
    for (const authorization of attempts) {
      const client = new Client({ name: 'intruder', version: '1.0.0' })
      const transport = new StreamableHTTPClientTransport(url, {
        requestInit: { headers: authorization ? { Authorization: authorization } : {} },
      })
      const error = await client.connect(transport).then(
        () => null,
        (caught: unknown) => caught as Error,
      )
      expect(error?.message).toContain('Invalid API key')
      expect((error as { code?: number }).code).toBe(401)
    }
    const revoked = (await admin.call(apiKeyOperations.create, { body: { name: 'gone', teamId } })).body
    const before = await connect(revoked)
    await before.listPrompts()
    expect((await admin.call(apiKeyOperations.revoke, { params: { id: revoked.id } })).status).toBe(204)
    const afterRevoke = await before.listPrompts().then(
      () => null,
      (caught: unknown) => caught as Error,
    )
    expect(afterRevoke?.message).toContain('Invalid API key')
  })

  it("keeps each key in its own space: another space's prompt is not found and not listed", async () => {
    const stranger = await connect(strangerKey)
    expect((await stranger.listPrompts()).prompts).toEqual([])
    const hidden = await refusalOf(
      stranger.getPrompt({ name: 'support/greeting', arguments: { customer: 'x' } }),
    )
    expect(hidden.code).toBe(ErrorCode.InvalidParams)
    expect(hidden.message).toContain('No prompt "support/greeting"')
    const listed = await callTool(stranger, 'list_prompts', {})
    expect(listed.items).toEqual([])
    const team = await connect(teamKey)
    expect((await team.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['guarded'])
    // A write lands in the key's own space, whatever the name.
    await callTool(stranger, 'create_prompt_version', { name: 'support/greeting', prompt: 'Mine' })
    const own = await connect(ownerKey)
    const unchanged = await own.getPrompt({
      name: 'support/greeting',
      arguments: { customer: 'A', order: 'B' },
    })
    expect(unchanged.messages[0]!.content).toMatchObject({ text: 'Hello A, your order B ships in 3 days. ' })
  })

  it("follows the space's plan: a plan without API access locks the key", async () => {
    const client = await connect(ownerKey)
    offsetDays = 15
    try {
      const refused = await client.listPrompts().then(
        () => null,
        (caught: unknown) => caught as Error,
      )
      expect((refused as { code?: number } | null)?.code).toBe(403)
    } finally {
      offsetDays = 0
    }
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0)
  })
})
