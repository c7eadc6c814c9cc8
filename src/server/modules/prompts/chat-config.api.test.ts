import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { errorOf, keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/** Chat prompts and configs made and edited in the app, and what the Langfuse API then serves. */
let testApp: TestApp
let owner: TestClient
let basic: string

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  await owner.signUp()
  const key = (await owner.call(apiKeyOperations.create, { body: { name: 'read', scope: 'read' } })).body
  basic = keyPairAuthorization(key)
})
afterAll(() => testApp.close())

const messages = [
  { role: 'system', content: 'You are a {{tone}} assistant.' },
  { type: 'placeholder', name: 'history' },
  { role: 'user', content: '{{question}}' },
]

async function fetchByName(name: string, query = '') {
  const res = await testApp.app.request(`/api/public/v2/prompts/${encodeURIComponent(name)}${query}`, {
    headers: { Authorization: basic },
  })
  expect(res.status).toBe(200)
  return (await res.json()) as { type: string; prompt: unknown; config: unknown; version: number }
}

async function versionCount(promptId: string) {
  const res = await owner.call(promptOperations.versions, { params: { id: promptId } })
  return res.body.items.length
}

describe('chat prompts made in the app', () => {
  it('store the messages and serve them to the SDKs as chat entries, with the config', async () => {
    const prompt = await createPromptAs(owner, {
      title: 'Support chat',
      type: 'chat',
      // Whitespace in the JSON is not kept: the body is stored compact.
      body: JSON.stringify(messages, null, 2),
      config: { model: 'gpt-4o', temperature: 0.2 },
    })
    expect(prompt.type).toBe('chat')
    expect(prompt.currentVersion?.body).toBe(JSON.stringify(messages))
    expect(prompt.currentVersion?.config).toEqual({ model: 'gpt-4o', temperature: 0.2 })
    const served = await fetchByName(prompt.name)
    expect(served).toMatchObject({
      type: 'chat',
      prompt: messages,
      config: { model: 'gpt-4o', temperature: 0.2 },
    })
  })

  it('refuse a body that is not a list of messages, naming the field, and create nothing', async () => {
    const before = await owner.call(promptOperations.list, {})
    for (const body of ['Just text', '[]', '[{"role":"user"}]', '{"role":"user","content":"x"}']) {
      const res = await owner.call(promptOperations.create, {
        body: { title: 'Bad chat', type: 'chat', body },
      })
      expect(res.status, body).toBe(400)
      expect(errorOf(res).fields?.body).toBe(
        'A chat prompt is a list of messages with a role and content, or placeholders',
      )
    }
    const after = await owner.call(promptOperations.list, {})
    expect(after.body.items.length).toBe(before.body.items.length)
  })

  it('name the clashing variable when a placeholder has a variable’s name', async () => {
    const body = JSON.stringify([
      { role: 'user', content: 'Hi {{history}}' },
      { type: 'placeholder', name: 'history' },
    ])
    const res = await owner.call(promptOperations.create, { body: { title: 'Clash', type: 'chat', body } })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.body).toBe('"history" cannot be both a variable and a placeholder')
    expect(errorOf(res).message).toBe('"history" cannot be both a variable and a placeholder')
  })

  it('are checked again on save: a text body for a chat prompt is refused and the version stays', async () => {
    const prompt = await createPromptAs(owner, {
      title: 'Chat to edit',
      type: 'chat',
      body: JSON.stringify(messages),
    })
    const params = { id: prompt.id }
    const res = await owner.call(promptOperations.update, { params, body: { body: 'plain text now' } })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.body).toBeDefined()
    expect(await versionCount(prompt.id)).toBe(1)
    const edited = [...messages, { role: 'assistant', content: 'Noted.' }]
    const saved = await owner.call(promptOperations.update, {
      params,
      body: { body: JSON.stringify(edited) },
    })
    expect(saved.status).toBe(200)
    expect(saved.body.currentVersion?.versionNumber).toBe(2)
    expect((await fetchByName(prompt.name)).prompt).toEqual(edited)
  })

  it('refuse an unknown type', async () => {
    const res = await owner.callUnchecked(promptOperations.create, {
      body: { title: 'Odd', type: 'image', body: 'x' },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.type).toBe('Type must be text or chat')
  })
})

describe('a version’s config', () => {
  it('makes a new version when it changes, with the body unchanged; the same config in another key order does not', async () => {
    const prompt = await createPromptAs(owner, {
      title: 'Configured',
      config: { model: 'a', temperature: 1 },
    })
    const params = { id: prompt.id }
    const same = await owner.call(promptOperations.update, {
      params,
      body: { config: { temperature: 1, model: 'a' } },
    })
    expect(same.body.currentVersion?.versionNumber).toBe(1)
    const changed = await owner.call(promptOperations.update, {
      params,
      body: { config: { model: 'b', temperature: 1 }, changelog: 'Model b' },
    })
    expect(changed.status).toBe(200)
    expect(changed.body.currentVersion).toMatchObject({
      versionNumber: 2,
      body: prompt.currentVersion?.body,
      config: { model: 'b', temperature: 1 },
      changelog: 'Model b',
    })
    // A body change keeps the config of the version it replaces.
    const rewritten = await owner.call(promptOperations.update, { params, body: { body: 'New words' } })
    expect(rewritten.body.currentVersion).toMatchObject({
      versionNumber: 3,
      config: { model: 'b', temperature: 1 },
    })
    expect((await fetchByName(prompt.name, '?version=2')).config).toEqual({ model: 'b', temperature: 1 })
  })

  it('must be a JSON object', async () => {
    for (const config of [[1, 2], 'gpt-4o', 3]) {
      const res = await owner.callUnchecked(promptOperations.create, {
        body: { title: 'Bad config', body: 'x', config },
      })
      expect(res.status).toBe(400)
      expect(errorOf(res).fields?.config).toBe('Config must be a JSON object')
    }
  })
})
