import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { promptVersions } from '../../db/schema/index.ts'
import { errorOf, keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

async function newUser() {
  const client = new TestClient(testApp)
  const user = await client.signUp()
  return { client, user }
}

const ref = (name: string, selector = 'label=production') => `@@@langfusePrompt:name=${name}|${selector}@@@`

async function langfuse(client: TestClient) {
  const key = (await client.call(apiKeyOperations.create, { body: { name: 'refs', scope: 'read_write' } }))
    .body
  const basic = keyPairAuthorization(key)
  return async (path: string) => {
    const res = await testApp.app.request(`/api/public/v2/prompts/${path}`, {
      headers: { Authorization: basic },
    })
    return { status: res.status, body: (await res.json()) as Record<string, unknown> }
  }
}

describe('prompt references', () => {
  it('resolves references on the Langfuse fetch, with the resolution graph, and raw with resolve=false', async () => {
    const { client } = await newUser()
    const tone = await createPromptAs(client, { title: 'tone', body: 'Be kind.' })
    const params = { id: tone.id }
    await client.call(promptOperations.update, { params, body: { body: 'Be kind and brief.' } })
    const sign = await createPromptAs(client, {
      title: 'sign',
      body: `Sign off. ${ref('tone', 'version=1')}`,
    })
    const main = await createPromptAs(client, {
      title: 'main',
      body: `Answer. ${ref('tone')} ${ref('sign')}`,
    })
    const get = await langfuse(client)

    const resolved = await get('main')
    expect(resolved.status).toBe(200)
    expect(resolved.body.prompt).toBe('Answer. Be kind and brief. Sign off. Be kind.')
    expect(resolved.body.resolutionGraph).toEqual({
      root: { id: main.currentVersionId, name: 'main', version: 1 },
      dependencies: {
        [main.currentVersionId!]: [
          { id: expect.any(String), name: 'tone', version: 2 },
          { id: sign.currentVersionId, name: 'sign', version: 1 },
        ],
        [sign.currentVersionId!]: [{ id: tone.currentVersionId, name: 'tone', version: 1 }],
      },
    })
    const raw = await get('main?resolve=false')
    expect(raw.body.prompt).toBe(`Answer. ${ref('tone')} ${ref('sign')}`)
    expect(raw.body.resolutionGraph).toBeNull()
    expect((await get('tone')).body.resolutionGraph).toBeNull()

    // Any stored label, and latest, name their versions too.
    const label = await client.call(promptLabelOperations.set, {
      params,
      body: { label: 'staging', versionId: tone.currentVersionId! },
    })
    expect(label.status).toBeLessThan(300)
    await createPromptAs(client, {
      title: 'labelled',
      body: `${ref('tone', 'label=staging')}|${ref('tone', 'label=latest')}`,
    })
    expect((await get('labelled')).body.prompt).toBe('Be kind.|Be kind and brief.')
  })

  it('refuses on save a missing reference, a cycle and a sixth level, on the body field', async () => {
    const { client } = await newUser()
    const missing = await client.call(promptOperations.create, { body: { title: 'x', body: ref('nowhere') } })
    expect(missing.status).toBe(400)
    expect(errorOf(missing).fields?.body).toContain('nowhere (label production)')

    const a = await createPromptAs(client, { title: 'a', body: 'A' })
    const params = { id: a.id }
    await createPromptAs(client, { title: 'b', body: ref('a') })
    const cycle = await client.call(promptOperations.update, {
      params,
      body: { body: `A ${ref('b')}` },
    })
    expect(cycle.status).toBe(400)
    expect(errorOf(cycle).fields?.body).toBe('These references would form a cycle: a → b → a.')
    const self = await client.call(promptOperations.update, { params, body: { body: ref('a', 'version=1') } })
    expect(self.status).toBe(400)

    // p1 ← p2 ← p3 ← p4 ← p5: five prompts deep is fine; a sixth on top is refused.
    await createPromptAs(client, { title: 'p1', body: 'bottom' })
    for (let i = 2; i <= 5; i++) await createPromptAs(client, { title: `p${i}`, body: ref(`p${i - 1}`) })
    const sixth = await client.call(promptOperations.create, { body: { title: 'p6', body: ref('p5') } })
    expect(sixth.status).toBe(400)
    expect(errorOf(sixth).fields?.body).toContain('at most 5 prompts deep')
  })

  it('refuses a cycle on fetch when one exists in stored data, naming it', async () => {
    const { client } = await newUser()
    const a = await createPromptAs(client, { title: 'ca', body: 'A' })
    const b = await createPromptAs(client, { title: 'cb', body: ref('ca', 'version=1') })
    const saved = await client.call(promptOperations.update, {
      params: { id: a.id },
      body: { body: `A2 ${ref('cb')}` },
    })
    expect(saved.status).toBe(400)
    // Data written before the check (or by hand) can still hold a cycle: the fetch refuses it.
    await testApp.database.db
      .update(promptVersions)
      .set({ body: `A ${ref('cb')}` })
      .where(eq(promptVersions.id, a.currentVersionId!))
    const get = await langfuse(client)
    const fetched = await get(`cb`)
    // Langfuse answers a stored reference that no longer resolves with 409 LangfuseConflictError.
    expect(fetched.status).toBe(409)
    expect(fetched.body.error).toBe('LangfuseConflictError')
    expect(String(fetched.body.message)).toContain('Circular dependency detected: cb → ca → cb')
    expect(b.name).toBe('cb')
  })

  it('resolves references on compile and for "Try it" as the fetch does, variables of included prompts too', async () => {
    const { client } = await newUser()
    const stranger = await newUser()
    await createPromptAs(client, { title: 'greeting', body: 'Hello {{name}}.' })
    const main = await createPromptAs(client, {
      title: 'letter',
      body: `${ref('greeting')} About {{topic}}.`,
      variables: [{ name: 'topic', type: 'string', required: true }],
    })
    const compiled = await client.call(promptOperations.compile, {
      params: { id: main.id },
      body: { values: { name: 'Ada', topic: 'tea' } },
    })
    expect(compiled.status).toBe(200)
    expect(compiled.body.prompt).toBe('Hello Ada. About tea.')
    const get = await langfuse(client)
    const fetched = await get('letter')
    expect(fetched.body.prompt).toBe('Hello {{name}}. About {{topic}}.')

    const resolved = await client.call(promptOperations.resolvedVersion, {
      params: { id: main.id, versionId: main.currentVersionId! },
    })
    expect(resolved.status).toBe(200)
    expect(resolved.body).toEqual({
      versionId: main.currentVersionId,
      versionNumber: 1,
      body: fetched.body.prompt,
      resolutionGraph: fetched.body.resolutionGraph,
    })
    const hidden = await stranger.client.call(promptOperations.resolvedVersion, {
      params: { id: main.id, versionId: main.currentVersionId! },
    })
    expect(hidden.status).toBe(404)

    // A cycle in stored data: compile and resolve refuse it with the chain, as the fetch does.
    const a = await createPromptAs(client, { title: 'loop-a', body: 'A' })
    const b = await createPromptAs(client, { title: 'loop-b', body: ref('loop-a') })
    await testApp.database.db
      .update(promptVersions)
      .set({ body: `A ${ref('loop-b')}` })
      .where(eq(promptVersions.id, a.currentVersionId!))
    const cycle = await client.call(promptOperations.compile, { params: { id: b.id }, body: {} })
    expect(cycle.status).toBe(400)
    expect(errorOf(cycle).message).toBe('These references would form a cycle: loop-b → loop-a → loop-b.')
    const cycleResolved = await client.call(promptOperations.resolvedVersion, {
      params: { id: b.id, versionId: b.currentVersionId! },
    })
    expect(cycleResolved.status).toBe(400)
    expect(errorOf(cycleResolved).message).toContain('loop-b → loop-a → loop-b')
  })

  it('lists "used by", refuses deleting a referenced prompt with its dependents, and stays within the space', async () => {
    const { client, user } = await newUser()
    const other = await newUser()
    const base = await createPromptAs(client, { title: 'base', body: 'Base' })
    const params = { id: base.id }
    await createPromptAs(client, { title: 'user-one', body: `1 ${ref('base')}` })
    await createPromptAs(client, { title: 'user-two', body: `2 ${ref('base', 'version=1')}` })
    const usedBy = await client.call(promptOperations.usedBy, { params })
    expect(usedBy.status).toBe(200)
    expect(usedBy.body.items.map((item) => item.name)).toEqual(['user-one', 'user-two'])

    const refused = await client.call(promptOperations.delete, { params })
    expect(refused.status).toBe(409)
    expect(errorOf(refused).message).toContain('user-one, user-two')
    expect((await client.call(promptOperations.get, { params })).status).toBe(200)
    expect((await other.client.call(promptOperations.usedBy, { params })).status).toBe(404)

    // Another user's prompt of the same name, and a team's, are not reachable from this space.
    await createPromptAs(other.client, { title: 'theirs', body: 'Theirs' })
    const cross = await client.call(promptOperations.create, { body: { title: 'x', body: ref('theirs') } })
    expect(cross.status).toBe(400)
    const team = await insertTeam(testApp.database.db, 'Refs', [{ userId: user.id, role: 'admin' }])
    const inTeam = await client.call(promptOperations.create, {
      body: { title: 'team one', body: ref('base'), visibility: 'team', teamId: team },
    })
    expect(inTeam.status).toBe(400)
    const unused = await createPromptAs(client, { title: 'free', body: 'Free' })
    expect((await client.call(promptOperations.usedBy, { params: { id: unused.id } })).body.items).toEqual([])
    expect((await client.call(promptOperations.delete, { params: { id: unused.id } })).status).toBe(204)
  })
})
