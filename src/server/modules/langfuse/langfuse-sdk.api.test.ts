import { LangfuseClient } from '@langfuse/client'
import { Langfuse } from 'langfuse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import { TestClient } from '../../testing/client.ts'
import { listen } from '../../testing/listen.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * Contract tests: the official Langfuse SDKs from npm, unchanged, against the real server on a
 * real port — `@langfuse/client` (v5) and the legacy `langfuse` (v3).
 */
let testApp: TestApp
let server: Awaited<ReturnType<typeof listen>>
let baseUrl: string
let owner: TestClient
let ownerKey: CreatedApiKey
let teamKey: CreatedApiKey
let readKey: CreatedApiKey

beforeAll(async () => {
  testApp = await createTestApp()
  // Served as main.ts serves it: the SDKs' repeated fetches are answered by the kept-fetch lane.
  server = await listen(testApp)
  baseUrl = server.baseUrl
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  const admin = new TestClient(testApp)
  const ownerUser = await owner.signUp()
  const adminUser = await admin.signUp()
  const teamId = await insertTeam(testApp.database.db, 'Ops', [
    { userId: adminUser.id, role: 'admin' },
    { userId: ownerUser.id },
  ])
  ownerKey = (await owner.call(apiKeyOperations.create, { body: { name: 'sdk', scope: 'read_write' } })).body
  readKey = (await owner.call(apiKeyOperations.create, { body: { name: 'reader', scope: 'read' } })).body
  teamKey = (
    await admin.call(apiKeyOperations.create, { body: { name: 'team', scope: 'read_write', teamId } })
  ).body
})
afterAll(async () => {
  await server?.close()
  await testApp.close()
})

const client = (key: CreatedApiKey, secretKey = key.secretKey) =>
  new LangfuseClient({ publicKey: key.publicKey, secretKey, baseUrl })

describe('@langfuse/client v5', () => {
  it('creates a text prompt, fetches it by label, version and default (production), and compiles it', async () => {
    const langfuse = client(ownerKey)
    const created = await langfuse.prompt.create({
      name: 'movie-critic',
      prompt: 'As a {{criticlevel}} critic, do you like {{movie}}?',
      config: { model: 'gpt-4o', temperature: 0.5 },
      labels: ['production'],
      tags: ['movies'],
      commitMessage: 'first cut',
    })
    expect(created.version).toBe(1)
    expect(created.labels).toEqual(['production', 'latest'])

    const prompt = await langfuse.prompt.get('movie-critic', { cacheTtlSeconds: 0 })
    expect(prompt.isFallback).toBe(false)
    expect(prompt.config).toEqual({ model: 'gpt-4o', temperature: 0.5 })
    expect(prompt.tags).toEqual(['movies'])
    expect(prompt.commitMessage).toBe('first cut')
    expect(prompt.compile({ criticlevel: 'expert', movie: 'Dune 2' })).toBe(
      'As a expert critic, do you like Dune 2?',
    )

    await langfuse.prompt.create({ name: 'movie-critic', prompt: 'v2 {{movie}}', labels: ['staging'] })
    expect(
      (await langfuse.prompt.get('movie-critic', { label: 'staging', cacheTtlSeconds: 0 })).version,
    ).toBe(2)
    expect((await langfuse.prompt.get('movie-critic', { label: 'latest', cacheTtlSeconds: 0 })).version).toBe(
      2,
    )
    expect((await langfuse.prompt.get('movie-critic', { cacheTtlSeconds: 0 })).version).toBe(1)
    const v1 = await langfuse.prompt.get('movie-critic', { version: 1, cacheTtlSeconds: 0 })
    expect(v1.prompt).toBe('As a {{criticlevel}} critic, do you like {{movie}}?')
    // Tags apply to every version.
    expect((await langfuse.prompt.get('movie-critic', { version: 2, cacheTtlSeconds: 0 })).tags).toEqual([
      'movies',
    ])

    // The app shows the same prompt, with its versions and changelog.
    const list = await owner.call(promptOperations.list, {})
    expect(list.body.items.find((p) => p.name === 'movie-critic')?.versionCount).toBe(2)
  })

  it('moves labels: production to version 2 is visible to the next uncached fetch', async () => {
    const langfuse = client(ownerKey)
    const updated = await langfuse.prompt.update({
      name: 'movie-critic',
      version: 2,
      newLabels: ['production'],
    })
    expect(updated.labels).toEqual(expect.arrayContaining(['production', 'latest', 'staging']))
    expect((await langfuse.prompt.get('movie-critic', { cacheTtlSeconds: 0 })).version).toBe(2)
    expect((await langfuse.prompt.get('movie-critic', { version: 1, cacheTtlSeconds: 0 })).labels).toEqual([])
  })

  it('fetches a folder name (encoded slash)', async () => {
    const langfuse = client(ownerKey)
    await langfuse.prompt.create({
      name: 'support/triage',
      prompt: 'Triage {{ticket}}',
      labels: ['production'],
    })
    const prompt = await langfuse.prompt.get('support/triage', { cacheTtlSeconds: 0 })
    expect(prompt.name).toBe('support/triage')
    expect(prompt.compile({ ticket: '#1' })).toBe('Triage #1')
  })

  it('creates a chat prompt with a placeholder and compiles it with messages', async () => {
    const langfuse = client(ownerKey)
    await langfuse.prompt.create({
      name: 'chat-helper',
      type: 'chat',
      prompt: [
        { role: 'system', content: 'You help with {{topic}}.' },
        { type: 'placeholder', name: 'history' },
        { role: 'user', content: '{{question}}' },
      ],
      labels: ['production'],
    })
    const prompt = await langfuse.prompt.get('chat-helper', { type: 'chat', cacheTtlSeconds: 0 })
    expect(prompt.type).toBe('chat')
    const messages = prompt.compile(
      { topic: 'cooking', question: 'Salt?' },
      {
        history: [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
      },
    )
    expect(messages).toEqual([
      { role: 'system', content: 'You help with cooking.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'user', content: 'Salt?' },
    ])
  })

  it('refuses to change a prompt’s type', async () => {
    const langfuse = client(ownerKey)
    await expect(langfuse.prompt.create({ name: 'chat-helper', prompt: 'now text' })).rejects.toMatchObject({
      statusCode: 400,
    })
  })

  it('falls back on a missing prompt, and throws without a fallback', async () => {
    const langfuse = client(ownerKey)
    const fallback = await langfuse.prompt.get('does-not-exist', { fallback: 'Hello {{x}}', maxRetries: 0 })
    expect(fallback.isFallback).toBe(true)
    expect(fallback.compile({ x: 'y' })).toBe('Hello y')
    await expect(langfuse.prompt.get('does-not-exist', { maxRetries: 0 })).rejects.toMatchObject({
      statusCode: 404,
    })
  })

  it('deletes a version, then the whole prompt', async () => {
    const langfuse = client(ownerKey)
    await langfuse.prompt.create({ name: 'short-lived', prompt: 'one', labels: ['production'] })
    await langfuse.prompt.create({ name: 'short-lived', prompt: 'two' })
    await langfuse.prompt.delete('short-lived', { version: 2 })
    const left = await langfuse.prompt.get('short-lived', { label: 'latest', cacheTtlSeconds: 0 })
    expect(left.version).toBe(1)
    await langfuse.prompt.delete('short-lived')
    await expect(
      langfuse.prompt.get('short-lived', { cacheTtlSeconds: 0, maxRetries: 0 }),
    ).rejects.toMatchObject({
      statusCode: 404,
    })
  })

  it('answers 401 to a wrong secret, 403 to a read key writing', async () => {
    await expect(
      client(ownerKey, 'sk-pf-wrong').prompt.get('movie-critic', { cacheTtlSeconds: 0, maxRetries: 0 }),
    ).rejects.toMatchObject({ statusCode: 401 })
    await expect(client(readKey).prompt.create({ name: 'nope', prompt: 'x' })).rejects.toMatchObject({
      statusCode: 403,
    })
    expect((await client(readKey).prompt.get('movie-critic', { cacheTtlSeconds: 0 })).version).toBe(2)
  })

  it('keeps spaces apart: a team key sees only the team’s prompts, and may use the same names', async () => {
    const team = client(teamKey)
    await expect(
      team.prompt.get('movie-critic', { cacheTtlSeconds: 0, maxRetries: 0 }),
    ).rejects.toMatchObject({
      statusCode: 404,
    })
    const created = await team.prompt.create({
      name: 'movie-critic',
      prompt: 'team version',
      labels: ['production'],
    })
    expect(created.version).toBe(1)
    expect((await team.prompt.get('movie-critic', { cacheTtlSeconds: 0 })).prompt).toBe('team version')
    expect((await client(ownerKey).prompt.get('movie-critic', { cacheTtlSeconds: 0 })).version).toBe(2)
  })
})

describe('langfuse v3 (legacy SDK)', () => {
  it('creates, fetches by label and version, and compiles', async () => {
    const langfuse = new Langfuse({ publicKey: ownerKey.publicKey, secretKey: ownerKey.secretKey, baseUrl })
    try {
      const created = await langfuse.createPrompt({
        name: 'legacy/greeting',
        prompt: 'Hello {{name}}',
        labels: ['production'],
        config: { temperature: 0 },
      })
      expect(created.version).toBe(1)
      const prompt = await langfuse.getPrompt('legacy/greeting', undefined, { cacheTtlSeconds: 0 })
      expect(prompt.compile({ name: 'Ada' })).toBe('Hello Ada')
      expect(prompt.config).toEqual({ temperature: 0 })
      await langfuse.createPrompt({ name: 'legacy/greeting', prompt: 'Hi {{name}}', labels: ['beta'] })
      const beta = await langfuse.getPrompt('legacy/greeting', undefined, {
        label: 'beta',
        cacheTtlSeconds: 0,
      })
      expect(beta.version).toBe(2)
      expect((await langfuse.getPrompt('legacy/greeting', 1, { cacheTtlSeconds: 0 })).prompt).toBe(
        'Hello {{name}}',
      )
      const fallback = await langfuse.getPrompt('legacy/missing', undefined, {
        fallback: 'fallback text',
        maxRetries: 0,
      })
      expect(fallback.isFallback).toBe(true)
    } finally {
      await langfuse.shutdownAsync()
    }
  })
})
