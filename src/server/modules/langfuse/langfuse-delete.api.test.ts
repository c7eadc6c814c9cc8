import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import { errorOf, keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

/**
 * DELETE /api/public/v2/prompts/{name} keeps what other prompts include, as the app's delete does
 * and as Langfuse answers it: 400 naming each dependent version, only for references that would
 * break (by a deleted version, or by a label only the deleted versions hold). Cases after
 * langfuse/langfuse web/src/__tests__/server/prompts.v2.servertest.ts, "DELETE
 * /api/public/v2/prompts/:promptName" ("returns 400 when deleting prompt with dependencies",
 * "handles mixed version and label dependencies correctly").
 */
let testApp: TestApp
let owner: TestClient
let teamId: string
let key: CreatedApiKey

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  await owner.signUp()
  teamId = (await createTeamAs(owner, 'Composers')).id
  key = (await owner.call(apiKeyOperations.create, { body: { name: 'deploy', scope: 'read_write', teamId } }))
    .body
})
afterAll(() => testApp.close())

function call<T = unknown>(method: string, path: string, body?: unknown) {
  return new TestClient(testApp).request<T>(method, `/api/public/v2/prompts${path}`, {
    body,
    headers: {
      Authorization: keyPairAuthorization(key),
    },
  })
}

async function post(name: string, prompt: string, labels: string[] = []) {
  const res = await call('POST', '', { name, prompt, labels })
  expect(res.status).toBe(201)
}

const tag = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`
type LangfuseError = { message: string; error: string }

describe('Langfuse DELETE and the prompts that include what it would delete', () => {
  // snippet: v1 production, v2 staging, v3 latest.
  beforeAll(async () => {
    await post('snippet', 'one', ['production'])
    await post('snippet', 'two', ['staging'])
    await post('snippet', 'three')
    await post('by-version', `A ${tag('snippet', 'version=1')}`, ['production'])
    await post('by-staging', `B ${tag('snippet', 'label=staging')}`, ['production'])
    await post('by-latest', `C ${tag('snippet', 'label=latest')}`, ['production'])
  })

  it('refuses a version another prompt includes by number, naming only that dependent', async () => {
    const res = await call<LangfuseError>('DELETE', '/snippet?version=1')
    expect(res.status).toBe(400)
    expect(res.body.error).toBe('InvalidRequestError')
    expect(res.body.message).toContain('depending on')
    expect(res.body.message).toContain('by-version v1 depends on snippet v1')
    expect(res.body.message).not.toContain('by-staging')
    expect(res.body.message).not.toContain('by-latest')
    expect((await call('GET', '/snippet?version=1')).status).toBe(200)
    const including = await call<{ prompt: string }>('GET', '/by-version')
    expect([including.status, including.body.prompt]).toEqual([200, 'A one'])
  })

  it('refuses the version holding a label another prompt includes, by label and by version', async () => {
    for (const selector of ['label=staging', 'version=2']) {
      const res = await call<LangfuseError>('DELETE', `/snippet?${selector}`)
      expect(res.status).toBe(400)
      expect(res.body.message).toContain('by-staging v1 depends on snippet staging')
      expect(res.body.message).not.toContain('by-version')
    }
  })

  it('refuses the whole prompt, naming every dependent, and deletes nothing', async () => {
    const res = await call<LangfuseError>('DELETE', '/snippet')
    expect(res.status).toBe(400)
    for (const dependent of ['by-version v1', 'by-staging v1', 'by-latest v1']) {
      expect(res.body.message).toContain(dependent)
    }
    expect(res.body.message).toContain('Please delete the dependent prompts first.')
    expect((await call<{ version: number }>('GET', '/snippet?label=latest')).body.version).toBe(3)
  })

  it('deletes a version nobody really depends on: latest moves to the highest remaining one', async () => {
    expect((await call('DELETE', '/snippet?version=3')).status).toBe(204)
    const including = await call<{ prompt: string }>('GET', '/by-latest')
    expect([including.status, including.body.prompt]).toEqual([200, 'C two'])
  })

  it('counts older versions of a dependent, and lets a label move away before its old version goes', async () => {
    await post('base', 'first', ['production'])
    await post('base', 'second')
    // The dependent's first version included base v1; its current one does not.
    await post('user-of-base', `X ${tag('base', 'version=1')}`, ['production'])
    await post('user-of-base', 'no reference', ['production'])
    const res = await call<LangfuseError>('DELETE', '/base?version=1')
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('user-of-base v1 depends on base v1')
    expect(res.body.message).not.toContain('user-of-base v2')

    await post('by-production', `P ${tag('base', 'label=production')}`, ['production'])
    expect((await call('PATCH', '/base/versions/2', { newLabels: ['production'] })).status).toBe(200)
    // Production now sits on v2, so deleting v2 would break by-production, and v1 is still held.
    expect((await call<LangfuseError>('DELETE', '/base?version=2')).status).toBe(400)
  })

  it('is the rule of the app’s delete too (409 there, naming the prompts)', async () => {
    const list = await owner.call(promptOperations.list, { query: { scope: 'team', teamId, limit: 100 } })
    const snippet = list.body.items.find((prompt) => prompt.name === 'snippet')!
    const res = await owner.call(promptOperations.delete, { params: { id: snippet.id } })
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toBe(
      'This prompt is included by other prompts and cannot be deleted: by-latest, by-staging, by-version. Remove the references first.',
    )
  })

  it('deletes once no dependent is left, and a prompt nobody includes at once', async () => {
    const lonely = await createPromptAs(owner, { title: 'Lonely', visibility: 'team', teamId })
    expect((await call('DELETE', `/${encodeURIComponent(lonely.name)}`)).status).toBe(204)
    expect((await owner.call(promptOperations.get, { params: { id: lonely.id } })).status).toBe(404)
    for (const dependent of ['by-version', 'by-staging', 'by-latest']) {
      expect((await call('DELETE', `/${dependent}`)).status).toBe(204)
    }
    expect((await call('DELETE', '/snippet?version=1')).status).toBe(204)
    expect((await call('DELETE', '/snippet')).status).toBe(204)
    expect((await call('GET', '/snippet')).status).toBe(404)
  })
})

describe('the delete the review found', () => {
  it('a team key cannot delete the version a protected production of another prompt includes', async () => {
    const guarded = (await createTeamAs(owner, 'Guarded')).id
    await owner.call(promptLabelOperations.setProtectedLabels, {
      params: { teamId: guarded },
      body: { labels: ['production'] },
    })
    const guardedKey = (
      await owner.call(apiKeyOperations.create, { body: { name: 'g', scope: 'read_write', teamId: guarded } })
    ).body
    const child = await createPromptAs(owner, {
      title: 'x',
      name: 'snippet',
      body: 'one',
      visibility: 'team',
      teamId: guarded,
    })
    await owner.call(promptOperations.update, { params: { id: child.id }, body: { body: 'two' } })
    await createPromptAs(owner, {
      title: 'x',
      name: 'main',
      body: `Main: ${tag('snippet', 'version=1')}`,
      visibility: 'team',
      teamId: guarded,
    })
    const basic = keyPairAuthorization(guardedKey)
    const request = (method: string, path: string) =>
      new TestClient(testApp).request<LangfuseError>(method, `/api/public/v2/prompts${path}`, {
        headers: { Authorization: basic },
      })
    const res = await request('DELETE', '/snippet?version=1')
    expect(res.status).toBe(400)
    expect(res.body.message).toContain('main v1 depends on snippet v1')
    const fetched = await request('GET', '/main')
    expect(fetched.status).toBe(200)
  })
})
