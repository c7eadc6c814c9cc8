import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { compilePromptInput, VariableDeclarationInput } from '../../../domain/prompt-variables.ts'
import { errorOf, keyClient, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/** `POST /api/v1/prompts/:id/compile` and the variables declared on versions. */
let testApp: TestApp
let owner: TestClient
let stranger: TestClient

beforeAll(async () => {
  testApp = await createTestApp()
  owner = new TestClient(testApp)
  await owner.signUp()
  stranger = new TestClient(testApp)
  await stranger.signUp()
})
afterAll(() => testApp.close())

const variables: VariableDeclarationInput[] = [
  { name: 'topic', type: 'string', required: true, description: 'What it is about' },
  { name: 'count', type: 'number', default: 3 },
  { name: 'formal', type: 'boolean', default: false },
  { name: 'tone', type: 'enum', values: ['calm', 'bold'], default: 'calm' },
]
const body = 'Write {{count}} {{tone}} tips on {{topic}}.{{#formal}} Be formal.{{/formal}} <{{raw}}>'

function compile(client: TestClient, promptId: string, input: z.input<typeof compilePromptInput>) {
  return client.call(promptOperations.compile, { params: { id: promptId }, body: input })
}

describe('variables on versions', () => {
  it('are stored with the version and shown in its answers; a changed declaration is a new version', async () => {
    const prompt = await createPromptAs(owner, { body, variables })
    const params = { id: prompt.id }
    expect(prompt.currentVersion?.variables).toEqual([
      {
        name: 'topic',
        type: 'string',
        required: true,
        default: null,
        description: 'What it is about',
        values: [],
      },
      { name: 'count', type: 'number', required: false, default: 3, description: null, values: [] },
      { name: 'formal', type: 'boolean', required: false, default: false, description: null, values: [] },
      {
        name: 'tone',
        type: 'enum',
        required: false,
        default: 'calm',
        description: null,
        values: ['calm', 'bold'],
      },
    ])
    const saved = await owner.call(promptOperations.update, {
      params,
      body: { variables: [{ name: 'topic', required: true }] },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.currentVersionNumber).toBe(2)
    expect(saved.body.currentVersion?.body).toBe(body)
    const first = await owner.call(promptOperations.version, {
      params: { id: prompt.id, versionId: prompt.currentVersionId! },
    })
    expect(first.body.variables).toHaveLength(4)
    // The same declarations again change nothing.
    const same = await owner.call(promptOperations.update, {
      params,
      body: { variables: [{ name: 'topic', required: true }] },
    })
    expect(same.body.currentVersionNumber).toBe(2)
  })

  it('are refused when invalid, naming the problem', async () => {
    const res = await owner.call(promptOperations.create, {
      body: { title: 'Bad', body: '{{a}}', variables: [{ name: 'a', type: 'enum' }] },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.['variables.0.values']).toMatch(/enum/i)
  })

  it('name the variable declared twice, in the message and next to the field', async () => {
    const res = await owner.call(promptOperations.create, {
      body: { title: 'Twice', body: '{{topic}}', variables: [{ name: 'topic' }, { name: 'topic' }] },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe('The variable "topic" is declared twice')
    expect(errorOf(res).fields?.['variables.1.name']).toBe('The variable "topic" is declared twice')
  })
})

describe('compile', () => {
  it('fills in values and defaults without HTML escaping', async () => {
    const prompt = await createPromptAs(owner, { body, variables })
    const res = await compile(owner, prompt.id, { values: { topic: 'tea & cake', formal: true, raw: '<b>' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({
      promptId: prompt.id,
      versionId: prompt.currentVersionId,
      versionNumber: 1,
      type: 'text',
      prompt: 'Write 3 calm tips on tea & cake. Be formal. <<b>>',
    })
  })

  it('answers 400 naming a missing required variable, a wrong type or a value outside the enum', async () => {
    const prompt = await createPromptAs(owner, { body, variables })
    const missing = await compile(owner, prompt.id, { values: {} })
    expect(missing.status).toBe(400)
    expect(errorOf(missing).code).toBe('validation')
    expect(errorOf(missing).message).toBe('The variable "topic" is required')
    expect(errorOf(missing).fields).toEqual({ 'values.topic': 'The variable "topic" is required' })

    const wrongType = await compile(owner, prompt.id, { values: { topic: 'x', count: 'many' } })
    expect(wrongType.status).toBe(400)
    expect(errorOf(wrongType).message).toBe('The value of "count" has the wrong type')

    const notInEnum = await compile(owner, prompt.id, { values: { topic: 'x', tone: 'loud' } })
    expect(notInEnum.status).toBe(400)
    expect(errorOf(notInEnum).message).toBe('The value of "tone" is not one of its allowed values')
  })

  it('compiles an older version by number or label', async () => {
    const prompt = await createPromptAs(owner, { body: 'v1 {{x}}' })
    const params = { id: prompt.id }
    await owner.call(promptOperations.update, { params, body: { body: 'v2 {{x}}' } })
    const byNumber = await compile(owner, prompt.id, { values: { x: 'a' }, version: 1 })
    expect(byNumber.body.prompt).toBe('v1 a')
    const latest = await compile(owner, prompt.id, { values: { x: 'a' }, label: 'latest' })
    expect(latest.body.prompt).toBe('v2 a')
    await owner.call(promptLabelOperations.set, {
      params,
      body: { label: 'staging', versionId: prompt.currentVersionId! },
    })
    const byLabel = await compile(owner, prompt.id, { values: { x: 'b' }, label: 'staging' })
    expect(byLabel.body).toMatchObject({ versionNumber: 1, prompt: 'v1 b' })
    const none = await compile(owner, prompt.id, { label: 'nowhere' })
    expect(none.status).toBe(404)
    const both = await compile(owner, prompt.id, { version: 1, label: 'staging' })
    expect(both.status).toBe(400)
    const unknownVersion = await compile(owner, prompt.id, { version: 9 })
    expect(unknownVersion.status).toBe(404)
  })

  it('compiles chat prompts message by message, keeping placeholders', async () => {
    const prompt = await createPromptAs(owner, {
      type: 'chat',
      body: JSON.stringify([
        { role: 'system', content: 'You are a {{tone}} assistant.' },
        { type: 'placeholder', name: 'history' },
        { role: 'user', content: '{{question}}' },
      ]),
      variables: [{ name: 'tone', type: 'enum', values: ['kind'], default: 'kind' }],
    })
    const res = await compile(owner, prompt.id, { values: { question: 'Why?' } })
    expect(res.status).toBe(200)
    expect(res.body.prompt).toEqual([
      { role: 'system', content: 'You are a kind assistant.' },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: 'Why?' },
    ])
  })

  it('may be called with a read-only API key (it changes nothing)', async () => {
    const prompt = await createPromptAs(owner, { body: 'Hi {{x}}' })
    const key = (await owner.call(apiKeyOperations.create, { body: { name: 'read', scope: 'read' } })).body
    const res = await keyClient(testApp, `Bearer ${key.secretKey}`).call(promptOperations.compile, {
      params: { id: prompt.id },
      body: { values: { x: 'key' } },
    })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    expect(res.body.prompt).toBe('Hi key')
  })

  it('reports a broken template as a 400, and refuses strangers with 404', async () => {
    const broken = await createPromptAs(owner, { body: '{{#open}} never closed' })
    const res = await compile(owner, broken.id, {})
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toMatch(/not a valid template/)
    const prompt = await createPromptAs(owner, { body: 'Hi {{x}}' })
    const refused = await compile(stranger, prompt.id, { values: { x: 'y' } })
    expect(refused.status).toBe(404)
    const badValues = await owner.callUnchecked(promptOperations.compile, {
      params: { id: prompt.id },
      body: { values: 'x' },
    })
    expect(badValues.status).toBe(400)
  })
})
