import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../domain/api/api-keys.ts'
import { operationUrl } from '../../domain/api/operation.ts'
import { planOperations } from '../../domain/api/plans.ts'
import { promptLabelOperations } from '../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../domain/api/prompts.ts'
import type { CreatedApiKey } from '../../domain/api-keys.ts'
import { createPromptAs } from '../modules/prompts/test-fixtures.ts'
import { keyPairAuthorization, TestClient } from '../testing/client.ts'
import { createTeamAs } from '../testing/teams.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'
import { type RuntimeCache, runtimeCacheOf } from './runtime-cache.ts'

/**
 * The runtime fetch served from memory: every kind of write that changes an answer (or a key)
 * reaches the cache, and the writer's next fetch sees its write. Each check first makes sure the
 * answer is kept (so a missed notification would serve the old one), then writes, then fetches.
 */
let testApp: TestApp
let cache: RuntimeCache
let owner: TestClient
let key: CreatedApiKey

function fetchPrompt(name: string, query = '', k: CreatedApiKey = key) {
  return testApp.app.request(`/api/public/v2/prompts/${encodeURIComponent(name)}${query}`, {
    headers: { Authorization: keyPairAuthorization(k) },
  })
}

function langfuse(method: string, path: string, body?: unknown) {
  return testApp.app.request(path, {
    method,
    headers: { Authorization: keyPairAuthorization(key), 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

/** Fetches twice and answers what the second (kept) answer says; fails when nothing was kept. */
async function keptAnswer(name: string, query = '', k: CreatedApiKey = key) {
  // A write made while nothing was kept does not wait for its notification; hear it first, or it
  // would arrive during the first fetch and keep that fetch's answer out of the cache.
  await cache.heardAllCommitted()
  await fetchPrompt(name, query, k)
  const hits = cache.hits
  const res = await fetchPrompt(name, query, k)
  expect(cache.hits).toBe(hits + 1)
  return {
    status: res.status,
    body: res.status === 200 ? ((await res.json()) as Record<string, unknown>) : null,
  }
}

beforeAll(async () => {
  testApp = await createTestApp()
  cache = runtimeCacheOf(testApp.database.db)!
  await cache.ready
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  await owner.signUp()
  key = (await owner.call(apiKeyOperations.create, { body: { name: 'cache', scope: 'read_write' } })).body
})
afterAll(() => testApp.close())

describe('the runtime cache', () => {
  it('is listening', () => {
    expect(cache.isLive).toBe(true)
  })

  it('sees a new version and a label moved through the Langfuse door', async () => {
    await langfuse('POST', '/api/public/v2/prompts', {
      name: 'lf',
      prompt: 'one',
      labels: ['production', 'staging'],
    })
    expect((await keptAnswer('lf', '?label=staging')).body?.prompt).toBe('one')
    expect((await keptAnswer('lf')).body?.prompt).toBe('one')
    expect((await keptAnswer('lf', '?label=latest')).body?.prompt).toBe('one')
    await langfuse('POST', '/api/public/v2/prompts', { name: 'lf', prompt: 'two', labels: [] })
    expect((await keptAnswer('lf', '?label=latest')).body?.prompt).toBe('two')
    expect((await keptAnswer('lf')).body?.prompt).toBe('one')
    expect(
      (await langfuse('PATCH', '/api/public/v2/prompts/lf/versions/2', { newLabels: ['staging'] })).status,
    ).toBe(200)
    expect((await keptAnswer('lf', '?label=staging')).body?.prompt).toBe('two')
    await langfuse('DELETE', '/api/public/v2/prompts/lf?version=2')
    expect((await keptAnswer('lf', '?label=latest')).body?.prompt).toBe('one')
    expect((await keptAnswer('lf', '?label=staging')).status).toBe(404)
    await langfuse('DELETE', '/api/public/v2/prompts/lf')
    expect((await keptAnswer('lf')).status).toBe(404)
  })

  it('sees the app’s writes: a save, the current version, a label, a rename, a move to a team, a delete', async () => {
    const made = await createPromptAs(owner, { title: 'App prompt', body: 'first' })
    const params = { id: made.id }
    const name = made.name
    expect((await keptAnswer(name)).body?.prompt).toBe('first')
    const saved = await owner.call(promptOperations.update, { params, body: { body: 'second' } })
    expect(saved.status).toBe(200)
    expect((await keptAnswer(name, '?label=latest')).body?.prompt).toBe('second')
    const second = saved.body.currentVersion!.id
    const first = made.currentVersion!.id
    expect(
      (await owner.call(promptOperations.setCurrentVersion, { params, body: { versionId: first } })).status,
    ).toBe(200)
    expect((await keptAnswer(name)).body?.prompt).toBe('first')
    expect((await keptAnswer(name, '?label=qa')).status).toBe(404)
    expect(
      (await owner.call(promptLabelOperations.set, { params, body: { label: 'qa', versionId: second } }))
        .status,
    ).toBe(200)
    expect((await keptAnswer(name, '?label=qa')).body?.prompt).toBe('second')
    expect(
      (await owner.call(promptLabelOperations.remove, { params: { id: made.id, label: 'qa' } })).status,
    ).toBe(204)
    expect((await keptAnswer(name, '?label=qa')).status).toBe(404)
    expect((await owner.call(promptOperations.update, { params, body: { name: 'renamed' } })).status).toBe(
      200,
    )
    expect((await keptAnswer(name)).status).toBe(404)
    expect((await keptAnswer('renamed')).body?.prompt).toBe('first')
    const team = await createTeamAs(owner, 'Cache team')
    expect(
      (await owner.call(promptOperations.update, { params, body: { visibility: 'team', teamId: team.id } }))
        .status,
    ).toBe(200)
    // A personal key reaches its user's personal prompts only.
    expect((await keptAnswer('renamed')).status).toBe(404)
    const other = await createPromptAs(owner, { title: 'Doomed', body: 'bye' })
    expect((await keptAnswer(other.name)).status).toBe(200)
    expect((await owner.call(promptOperations.delete, { params: { id: other.id } })).status).toBe(204)
    expect((await keptAnswer(other.name)).status).toBe(404)
  })

  it('sees an import, and a change to a prompt an answer includes', async () => {
    const base = await createPromptAs(owner, { title: 'Base', body: 'base one' })
    const exported = await owner.call(promptOperations.exportPrompts, {})
    const document = { ...exported.body, prompts: exported.body.prompts.filter((p) => p.name === base.name) }
    document.prompts[0]!.name = 'imported'
    expect((await keptAnswer('imported')).status).toBe(404)
    expect(
      (await owner.call(promptOperations.importPrompts, { body: { document, teamId: null, dryRun: false } }))
        .status,
    ).toBe(200)
    expect((await keptAnswer('imported')).body?.prompt).toBe('base one')

    await langfuse('POST', '/api/public/v2/prompts', {
      name: 'includer',
      prompt: `Before @@@langfusePrompt:name=${base.name}|label=production@@@ after`,
      labels: ['production'],
    })
    expect((await keptAnswer('includer')).body?.prompt).toBe('Before base one after')
    expect(
      (await owner.call(promptOperations.update, { params: { id: base.id }, body: { body: 'base two' } }))
        .status,
    ).toBe(200)
    expect((await keptAnswer('includer')).body?.prompt).toBe('Before base two after')
  })

  it('answers 304 from the kept entry, and a new ETag after a change', async () => {
    await langfuse('POST', '/api/public/v2/prompts', { name: 'tagged', prompt: 'v1', labels: ['production'] })
    const first = await fetchPrompt('tagged')
    const etag = first.headers.get('etag')!
    const again = await testApp.app.request('/api/public/v2/prompts/tagged', {
      headers: { Authorization: keyPairAuthorization(key), 'If-None-Match': etag },
    })
    expect(again.status).toBe(304)
    await langfuse('POST', '/api/public/v2/prompts', { name: 'tagged', prompt: 'v2', labels: ['production'] })
    const changed = await testApp.app.request('/api/public/v2/prompts/tagged', {
      headers: { Authorization: keyPairAuthorization(key), 'If-None-Match': etag },
    })
    expect(changed.status).toBe(200)
    expect(changed.headers.get('etag')).not.toBe(etag)
  })

  it('refuses a revoked key at once, on both doors', async () => {
    const doomed = (await owner.call(apiKeyOperations.create, { body: { name: 'doomed', scope: 'read' } }))
      .body
    await langfuse('POST', '/api/public/v2/prompts', { name: 'guarded', prompt: 'x', labels: ['production'] })
    expect((await keptAnswer('guarded', '', doomed)).status).toBe(200)
    const bearer = { Authorization: `Bearer ${doomed.secretKey}` }
    expect(
      (await testApp.app.request(operationUrl(promptOperations.list.spec), { headers: bearer })).status,
    ).toBe(200)
    expect((await owner.call(apiKeyOperations.revoke, { params: { id: doomed.id } })).status).toBe(204)
    expect((await fetchPrompt('guarded', '', doomed)).status).toBe(401)
    expect(
      (await testApp.app.request(operationUrl(promptOperations.list.spec), { headers: bearer })).status,
    ).toBe(401)
  })

  it('refuses a key whose row changed behind the API (a delete from the database)', async () => {
    const gone = (await owner.call(apiKeyOperations.create, { body: { name: 'gone', scope: 'read' } })).body
    expect((await keptAnswer('guarded', '', gone)).status).toBe(200)
    // Not a transaction of this process's API: only the notification can drop the key.
    await testApp.database.db.execute(sql`DELETE FROM api_keys WHERE id = ${gone.id}`)
    await expect.poll(async () => (await fetchPrompt('guarded', '', gone)).status).toBe(401)
  })
})

describe('the runtime cache and plans', () => {
  it('locks a kept key once its space’s plan loses API access', async () => {
    const plansApp = await createTestApp({ plansEnabled: true })
    try {
      await runtimeCacheOf(plansApp.database.db)!.ready
      const user = new TestClient(plansApp)
      await user.signUp()
      const created = (await user.call(apiKeyOperations.create, { body: { name: 'Trial key' } })).body
      const bearer = { Authorization: `Bearer ${created.secretKey}` }
      const call = () => plansApp.app.request(operationUrl(promptOperations.list.spec), { headers: bearer })
      expect((await call()).status).toBe(200)
      expect((await call()).status).toBe(200)
      expect(runtimeCacheOf(plansApp.database.db)!.entries).toBeGreaterThan(0)
      expect((await user.call(planOperations.choose, { body: { plan: 'free' } })).status).toBe(200)
      expect((await call()).status).toBe(403)
    } finally {
      await plansApp.close()
    }
  })
})
