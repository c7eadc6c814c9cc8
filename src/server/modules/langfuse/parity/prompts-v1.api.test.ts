import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../testing/test-app.ts'
import { newProject, type Project, unique } from './harness.ts'

/**
 * The cases of langfuse/langfuse web/src/__tests__/server/prompts.v1.servertest.ts (the legacy
 * /api/public/prompts: GET ?name=&version=, POST with isActive), written anew against our API.
 * Versions Langfuse seeds with prisma are created through the legacy POST here.
 */
const base = '/api/public/prompts'
let testApp: TestApp
let project: Project

beforeAll(async () => {
  testApp = await createTestApp()
  project = await newProject(testApp)
})
afterAll(() => testApp.close())

const post = (body: Record<string, unknown>) => project.call('POST', base, body)
const get = (name: string, version?: number) =>
  project.call('GET', `${base}?name=${encodeURIComponent(name)}${version ? `&version=${version}` : ''}`)
const notFound = { error: 'LangfuseNotFoundError', message: 'Prompt not found' }

describe('/api/public/prompts', () => {
  // prompts.v1.servertest.ts › "should fetch a prompt" and "should fetch a prompt with special character"
  it.each(['prompt-name', 'prompt + name'])('fetches a prompt by name and version (%s)', async (prefix) => {
    const name = unique(prefix)
    const made = await post({ name, prompt: 'prompt', labels: ['production'], config: { temperature: 0.1 } })
    const { status, body } = await get(name, 1)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      id: made.body.id,
      name,
      prompt: 'prompt',
      type: 'text',
      version: 1,
      isActive: true,
      // Langfuse's seeded version has no `latest`; one its API creates has.
      labels: ['production', 'latest'],
      createdBy: 'API',
      config: { temperature: 0.1 },
      tags: [],
    })
  })

  // prompts.v1.servertest.ts › "should fetch active prompt only if no prompt version is given"
  it('answers 404 without a version when no version is active', async () => {
    const name = unique('prompt-name')
    await post({ name, prompt: 'prompt', labels: [], config: { temperature: 0.1 } })
    expect((await get(name)).status).toBe(404)
  })

  // prompts.v1.servertest.ts › "should fetch inactive prompt if prompt version is given"
  it('fetches an inactive version by its number', async () => {
    const name = unique('prompt-name')
    const first = await post({ name, prompt: 'prompt-one', labels: [], config: { temperature: 0.1 } })
    await post({ name, prompt: 'prompt', labels: ['production'], config: { temperature: 0.2 } })
    const { status, body } = await get(name, 1)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      id: first.body.id,
      name,
      prompt: 'prompt-one',
      version: 1,
      isActive: false,
      labels: [],
      config: { temperature: 0.1 },
    })
  })

  // prompts.v1.servertest.ts › "should fetch active prompt when multiple exist"
  it('fetches the active version when several were made active', async () => {
    const name = unique('prompt-name')
    const common = { name, createdBy: 'user-1' }
    const first = await post({
      ...common,
      prompt: 'prompt1',
      isActive: true,
      version: 1,
      config: { temperature: 0.1 },
    })
    const second = await post({
      ...common,
      prompt: 'prompt2',
      labels: ['production'],
      isActive: true,
      version: 2,
      config: { temperature: 0.2 },
    })
    await post({
      ...common,
      prompt: 'prompt3',
      labels: [],
      isActive: false,
      version: 3,
      config: { temperature: 0.3 },
    })
    const active = await get(name)
    expect(active.status).toBe(200)
    expect(active.body).toMatchObject({
      id: second.body.id,
      name,
      prompt: 'prompt2',
      type: 'text',
      version: 2,
      isActive: true,
      labels: ['production'],
      createdBy: 'API',
      config: { temperature: 0.2 },
    })
    const old = await get(name, 1)
    expect(old.body).toMatchObject({
      id: first.body.id,
      prompt: 'prompt1',
      version: 1,
      isActive: false,
      labels: [],
      createdBy: 'API',
      config: { temperature: 0.1 },
    })
  })

  // prompts.v1.servertest.ts › "should correctly handle overwriting labels"
  it('handles overwriting labels', async () => {
    const name = unique('prompt-name')
    const first = await post({
      name,
      prompt: 'prompt1',
      labels: ['production', 'staging', 'development'],
      isActive: true,
      config: { temperature: 0.1 },
    })
    const second = await post({
      name,
      prompt: 'prompt2',
      labels: ['production', 'production', 'staging'],
      isActive: true,
      config: { temperature: 0.2 },
    })
    const third = await post({ name, prompt: 'prompt3', labels: ['staging'], isActive: false })
    const active = await get(name)
    expect(active.body.id).toBe(second.body.id)
    expect(active.body.labels).toEqual(['production'])
    const v1 = await get(name, 1)
    expect(v1.body.id).toBe(first.body.id)
    expect(v1.body.labels).toEqual(['development'])
    const v3 = await get(name, 3)
    expect(v3.body.id).toBe(third.body.id)
    expect(v3.body.labels).toEqual(['staging', 'latest'])
  })

  // prompts.v1.servertest.ts › "should create and fetch a prompt"
  it('creates and fetches a prompt', async () => {
    const name = unique('prompt-name')
    await post({ name, prompt: 'prompt', isActive: true, config: { temperature: 0.1 } })
    const { status, body } = await get(name, 1)
    expect(status).toBe(200)
    expect(body).toMatchObject({
      name,
      prompt: 'prompt',
      type: 'text',
      version: 1,
      isActive: true,
      labels: ['production', 'latest'],
      createdBy: 'API',
      config: { temperature: 0.1 },
    })
  })

  // prompts.v1.servertest.ts › "should create empty object if no config is provided"
  it('creates an empty config when none is given', async () => {
    const name = unique('prompt-name')
    await post({ name, prompt: 'prompt', isActive: true })
    const { body } = await get(name, 1)
    expect(body).toMatchObject({ labels: ['production', 'latest'], createdBy: 'API', config: {} })
  })

  const chatMessages = [
    { role: 'system', content: 'You are a bot' },
    { role: 'user', content: "What's up?" },
  ]

  // prompts.v1.servertest.ts › "should create and fetch a chat prompt"
  it('creates and fetches a chat prompt', async () => {
    const name = unique('prompt-name')
    const res = await post({ name, prompt: chatMessages, type: 'chat', isActive: true })
    expect(res.status).toBe(201)
    const { body } = await get(name)
    expect(body).toMatchObject({
      name,
      prompt: chatMessages,
      type: 'chat',
      version: 1,
      isActive: true,
      labels: ['production', 'latest'],
      createdBy: 'API',
      config: {},
    })
  })

  // prompts.v1.servertest.ts › "should fail if chat prompt has string prompt",
  // "should fail if chat prompt has incorrect messages format", "should fail if text prompt has message format"
  it.each([
    ['a chat prompt given a string', { prompt: 'prompt', type: 'chat' }],
    [
      'a chat prompt with a message without content',
      {
        prompt: [
          { role: 'system', content: 'You are a bot' },
          { role: 'user', message: "What's up?" },
        ],
        type: 'chat',
      },
    ],
    [
      'a text prompt given messages',
      { prompt: [{ role: 'system', content: 'You are a bot' }], type: 'text' },
    ],
  ])('refuses %s, and nothing is created', async (_, input) => {
    const name = unique('prompt-name')
    expect((await post({ name, isActive: true, ...input })).status).toBe(400)
    const fetched = await get(name)
    expect(fetched.status).toBe(404)
    expect(fetched.body).toEqual(notFound)
  })

  // prompts.v1.servertest.ts › "should fail if previous versions have different prompt type"
  it('fails if previous versions have a different prompt type', async () => {
    const name = unique('prompt-name')
    expect((await post({ name, prompt: chatMessages, type: 'chat', isActive: true })).status).toBe(201)
    const second = await post({ name, prompt: 'prompt', type: 'text', isActive: true, version: 2 })
    expect(second.status).toBe(400)
    expect(second.body).toEqual({
      error: 'InvalidRequestError',
      message: 'Previous versions have different prompt type. Create a new prompt with a different name.',
    })
    const first = await get(name)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({
      prompt: chatMessages,
      type: 'chat',
      version: 1,
      isActive: true,
      labels: ['production', 'latest'],
      createdBy: 'API',
      config: {},
    })
    const none = await get(name, 2)
    expect(none.status).toBe(404)
    expect(none.body).toEqual(notFound)
  })
})
