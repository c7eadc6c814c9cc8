import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modelOperations } from '../../../domain/api/models.ts'
import type { OperationInput } from '../../../domain/api/operation.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { translate } from '../../../domain/messages/index.ts'
import { type ModelProvider, PLACEHOLDER_LIMITS } from '../../../domain/models.ts'
import { PROMPT_LIMITS } from '../../../domain/prompts.ts'
import { auditLog } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { FakeModelServer } from '../../testing/model-server.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { addFakeProvider } from './test-fixtures.ts'

/**
 * The playground's side of the run API: an edited draft run instead of a stored version (with a
 * version's limits, compiled as the version would be), a chat prompt's placeholders filled with
 * messages, and the variables of a text whose included prompts are expanded.
 */

let testApp: TestApp
let fake: FakeModelServer
let owner: TestClient
let member: TestClient
let stranger: TestClient
let teamId: string
let provider: ModelProvider
let memberProvider: ModelProvider

beforeAll(async () => {
  testApp = await createTestApp({ modelsAllowPrivate: true })
  fake = await FakeModelServer.start()
  owner = new TestClient(testApp)
  member = new TestClient(testApp)
  stranger = new TestClient(testApp)
  const ownerUser = await owner.signUp()
  const memberUser = await member.signUp()
  await stranger.signUp()
  teamId = await insertTeam(testApp.database.db, 'Playground', [
    { userId: ownerUser.id, role: 'admin' },
    { userId: memberUser.id },
  ])
  provider = await addProvider(owner)
  memberProvider = await addProvider(member)
})
afterAll(async () => {
  await testApp.close()
  await fake.close()
})

const addProvider = (client: TestClient) =>
  addFakeProvider(client, fake, { name: 'Fake', models: ['fake-small', 'fake-large'] })

const en = (key: Parameters<typeof translate>[1], params?: Parameters<typeof translate>[2]) =>
  translate('en', key, params)

function run(client: TestClient, promptId: string, body: OperationInput<typeof modelOperations.run>['body']) {
  return client.call(modelOperations.run, { params: { id: promptId }, body })
}

describe('running an edited draft', () => {
  it('runs the draft’s text with its config as defaults, names the version it started from, and audits it as a draft', async () => {
    const prompt = await createPromptAs(owner, {
      body: 'Stored {{name}}.',
      config: { model: 'fake-large', temperature: 0.9 },
    })
    const res = await run(owner, prompt.id, {
      providerId: provider.id,
      values: { name: 'Ada', tone: 'dry' },
      draft: {
        body: 'Edited {{name}}, {{tone}}.',
        config: { model: 'fake-small', temperature: 0.1, max_tokens: 20 },
        variables: [{ name: 'tone', type: 'enum', values: ['dry', 'warm'] }],
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body).toMatchObject({
      text: 'Echo: Edited Ada, dry.',
      model: 'fake-small',
      draft: true,
      versionId: prompt.currentVersion!.id,
      versionNumber: 1,
    })
    expect(fake.requests.at(-1)!.body).toMatchObject({
      model: 'fake-small',
      temperature: 0.1,
      max_tokens: 20,
    })
    const audit = await testApp.database.db.select().from(auditLog).where(eq(auditLog.objectId, prompt.id))
    expect(audit.find((entry) => entry.action === 'prompt.run')!.after).toMatchObject({
      draft: true,
      versionNumber: 1,
      model: 'fake-small',
    })
    // Nothing was saved: the prompt still has its one version.
    const detail = await owner.call(promptOperations.get, { params: { id: prompt.id } })
    expect(detail.body.versionCount).toBe(1)
  })

  it('checks the draft’s values against its own declarations', async () => {
    const prompt = await createPromptAs(owner, { body: 'Hi {{tone}}' })
    const res = await run(owner, prompt.id, {
      providerId: provider.id,
      values: { tone: 'loud' },
      draft: { body: 'Hi {{tone}}', variables: [{ name: 'tone', type: 'enum', values: ['dry'] }] },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.['values.tone']).toBeDefined()
  })

  it('refuses a draft past a version’s limits, each with its message', async () => {
    const prompt = await createPromptAs(owner, { body: 'Hi' })
    const cases: [Record<string, unknown>, string, string][] = [
      [{ body: '   ' }, 'draft.body', en('prompts.contentRequired')],
      [{ body: 'x'.repeat(PROMPT_LIMITS.body + 1) }, 'draft.body', en('prompts.contentTooLong')],
      [{ body: 'Hi', config: [1] }, 'draft.config', en('prompts.configInvalid')],
      [
        { body: 'Hi', config: JSON.parse(`${'{"a":'.repeat(21)}1${'}'.repeat(21)}`) },
        'draft.config',
        en('prompts.configTooDeep'),
      ],
      [
        { body: 'Hi', variables: [{ name: '1a' }] },
        'draft.variables.0.name',
        en('prompts.variableNameInvalid'),
      ],
    ]
    for (const [draft, field, message] of cases) {
      const res = await owner.callUnchecked(modelOperations.run, {
        params: { id: prompt.id },
        body: { providerId: provider.id, draft },
      })
      expect(res.status, field).toBe(400)
      expect(errorOf(res).message, field).toBe(message)
      expect(errorOf(res).fields?.[field], field).toBeDefined()
    }
  })

  it('refuses a chat draft that is not a list of messages, on its body', async () => {
    const prompt = await createPromptAs(owner, {
      type: 'chat',
      body: JSON.stringify([{ role: 'user', content: 'Hi' }]),
    })
    const res = await run(owner, prompt.id, { providerId: provider.id, draft: { body: 'not json' } })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.['draft.body']).toBe(en('prompts.chatMessageInvalid'))
  })

  it('expands the prompts a draft includes as a saved version would, and names a missing one', async () => {
    await createPromptAs(owner, { title: 'Style', name: 'style', body: 'Write in a {{tone}} tone.' })
    const prompt = await createPromptAs(owner, { body: 'Hi' })
    const res = await run(owner, prompt.id, {
      providerId: provider.id,
      values: { tone: 'dry' },
      draft: { body: 'Greet. @@@langfusePrompt:name=style|label=production@@@' },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.text).toBe('Echo: Greet. Write in a dry tone.')
    const missing = await run(owner, prompt.id, {
      providerId: provider.id,
      draft: { body: '@@@langfusePrompt:name=nowhere|label=production@@@' },
    })
    expect(missing.status).toBe(400)
    expect(errorOf(missing).message).toBe(
      en('prompts.referenceMissing', { reference: 'nowhere (label production)' }),
    )
  })

  it('lets whoever may view the prompt run a draft (saving it stays with its editors); nobody else', async () => {
    const prompt = await createPromptAs(owner, { body: 'Team {{x}}', visibility: 'team', teamId })
    const byMember = await run(member, prompt.id, {
      providerId: memberProvider.id,
      values: { x: 'draft' },
      draft: { body: 'Member {{x}}' },
    })
    expect(byMember.status, JSON.stringify(byMember.body)).toBe(200)
    expect(byMember.body.text).toBe('Echo: Member draft')
    const save = await member.call(promptOperations.update, {
      params: { id: prompt.id },
      body: { body: 'Member draft', baseVersionId: prompt.currentVersionId },
    })
    expect(save.status).toBe(403)
    const strangerProvider = await addProvider(stranger)
    const byStranger = await run(stranger, prompt.id, {
      providerId: strangerProvider.id,
      draft: { body: 'Mine' },
    })
    expect(byStranger.status).toBe(404)
  })
})

describe('placeholders', () => {
  const chatBody = JSON.stringify([
    { role: 'system', content: 'Be {{mood}}.' },
    { type: 'placeholder', name: 'history' },
    { role: 'user', content: 'And now?' },
  ])

  it('fills a placeholder with the given messages, as given, between the others', async () => {
    const prompt = await createPromptAs(owner, { type: 'chat', body: chatBody })
    const res = await run(owner, prompt.id, {
      providerId: provider.id,
      values: { mood: 'brief' },
      placeholders: {
        history: [
          { role: 'user', content: 'Hello {{mood}}' },
          { role: 'assistant', content: 'Hi.' },
        ],
      },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(fake.requests.at(-1)!.body?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hello {{mood}}' },
      { role: 'assistant', content: 'Hi.' },
      { role: 'user', content: 'And now?' },
    ])
  })

  it('sends no messages for a placeholder left unfilled', async () => {
    const prompt = await createPromptAs(owner, { type: 'chat', body: chatBody })
    const res = await run(owner, prompt.id, { providerId: provider.id, values: { mood: 'calm' } })
    expect(res.status).toBe(200)
    expect(fake.requests.at(-1)!.body?.messages).toEqual([
      { role: 'system', content: 'Be calm.' },
      { role: 'user', content: 'And now?' },
    ])
  })

  it('refuses messages without a role, too long, or too many', async () => {
    const prompt = await createPromptAs(owner, { type: 'chat', body: chatBody })
    const cases: [unknown, string][] = [
      [{ history: [{ role: '', content: 'x' }] }, en('models.placeholderInvalid')],
      [{ history: [{ content: 'x' }] }, en('models.placeholderInvalid')],
      [
        { history: [{ role: 'user', content: 'x'.repeat(PLACEHOLDER_LIMITS.content + 1) }] },
        en('models.placeholderTooLong'),
      ],
      [
        {
          history: Array.from({ length: PLACEHOLDER_LIMITS.messages + 1 }, () => ({
            role: 'user',
            content: 'x',
          })),
        },
        en('models.tooManyPlaceholderMessages'),
      ],
      [{ 'not a name': [] }, en('models.placeholderInvalid')],
    ]
    for (const [placeholders, message] of cases) {
      const res = await owner.callUnchecked(modelOperations.run, {
        params: { id: prompt.id },
        body: { providerId: provider.id, placeholders },
      })
      expect(res.status).toBe(400)
      expect(errorOf(res).message).toBe(message)
    }
  })
})

describe('variables of the expanded text', () => {
  it('lists the variables and placeholders of the included prompts too, for a version and for a draft', async () => {
    await createPromptAs(owner, { title: 'Signature', name: 'signature', body: 'Regards, {{sender}}' })
    const prompt = await createPromptAs(owner, {
      body: 'Dear {{name}}, @@@langfusePrompt:name=signature|label=production@@@',
    })
    const variables = (body: Record<string, unknown>) =>
      owner.call(modelOperations.variables, { params: { id: prompt.id }, body })
    const stored = await variables({})
    expect(stored.status, JSON.stringify(stored.body)).toBe(200)
    expect(stored.body).toEqual({ variables: ['name', 'sender'], placeholders: [] })
    const draft = await variables({ body: '{{greeting}} @@@langfusePrompt:name=signature|version=1@@@' })
    expect(draft.body).toEqual({ variables: ['greeting', 'sender'], placeholders: [] })
    const broken = await variables({ body: '@@@langfusePrompt:name=gone|label=production@@@' })
    expect(broken.status).toBe(400)
    expect(errorOf(broken).message).toBe(
      en('prompts.referenceMissing', { reference: 'gone (label production)' }),
    )
    const noVersion = await variables({ version: 9 })
    expect(noVersion.status).toBe(404)
  })

  it('lists a chat prompt’s placeholders, and answers 404 to whoever may not see the prompt', async () => {
    const prompt = await createPromptAs(owner, {
      type: 'chat',
      body: JSON.stringify([
        { role: 'system', content: 'You are {{role}}.' },
        { type: 'placeholder', name: 'history' },
      ]),
    })
    const res = await owner.call(modelOperations.variables, { params: { id: prompt.id }, body: {} })
    expect(res.body).toEqual({ variables: ['role'], placeholders: ['history'] })
    const byStranger = await stranger.call(modelOperations.variables, { params: { id: prompt.id }, body: {} })
    expect(byStranger.status).toBe(404)
  })
})
