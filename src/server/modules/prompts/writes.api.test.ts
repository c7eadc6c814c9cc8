import { and, asc, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import {
  auditLog,
  promptDependencies,
  prompts,
  webhookDeliveries,
  webhookEndpoints,
} from '../../db/schema/index.ts'
import { errorOf, keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/**
 * The prompt write path seen from two doors: the app's API and the Langfuse API reach the same
 * operations (`writes.ts`), so a rule refuses the same way and a write leaves the same trace (audit
 * entry, webhook event, dependency rows) whichever door it came through.
 */
let testApp: TestApp
let admin: TestClient
let member: TestClient
let adminUser: CurrentUser
let teamId: string
/** A write key of the team (Basic on the Langfuse routes). */
let teamKey: CreatedApiKey

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp() // the installation's first account, a global admin
  admin = new TestClient(testApp)
  member = new TestClient(testApp)
  adminUser = await admin.signUp()
  const memberUser = await member.signUp()
  teamId = await insertTeam(testApp.database.db, 'Two doors', [
    { userId: adminUser.id, role: 'admin' },
    { userId: memberUser.id },
  ])
  expect(
    (
      await admin.call(promptLabelOperations.setProtectedLabels, {
        params: { teamId },
        body: { labels: ['gold'] },
      })
    ).status,
  ).toBe(200)
  teamKey = (
    await admin.call(apiKeyOperations.create, { body: { name: 'Team deploy', scope: 'read_write', teamId } })
  ).body
  await testApp.database.db.insert(webhookEndpoints).values({
    teamId,
    url: 'https://hooks.example.com/promptfolio',
    events: ['prompt.created', 'prompt.version.created', 'prompt.label.moved', 'prompt.deleted'],
    secret: 'whsec_AAAA',
  })
})
afterAll(() => testApp.close())

function langfuse<T>(method: string, path: string, body?: unknown) {
  return new TestClient(testApp).request<T>(method, `/api/public${path}`, {
    body,
    headers: {
      Authorization: keyPairAuthorization(teamKey),
    },
  })
}

async function promptIdOf(name: string): Promise<string> {
  const [row] = await testApp.database.db
    .select({ id: prompts.id })
    .from(prompts)
    .where(and(eq(prompts.teamId, teamId), eq(prompts.name, name)))
  return row!.id
}

/** A queued event as its endpoint receives it (the parts these tests read). */
interface QueuedEvent {
  type: string
  actor: { type: string }
  data: {
    prompt?: { id: string }
    version?: { version: number; labels: string[] }
    label?: string
    toVersion?: number | null
  }
}

/** The webhook events queued about one prompt, oldest first, as their endpoint receives them. */
async function eventsAbout(promptId: string) {
  const rows = await testApp.database.db
    .select({ payload: webhookDeliveries.payload })
    .from(webhookDeliveries)
    .orderBy(asc(webhookDeliveries.createdAt))
  return rows
    .map((row) => JSON.parse(row.payload) as QueuedEvent)
    .filter((event) => event.data.prompt?.id === promptId)
}

async function auditAbout(promptId: string) {
  return testApp.database.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.objectId, promptId))
    .orderBy(asc(auditLog.createdAt))
}

describe('one write path behind the app and the Langfuse API', () => {
  it('refuses a protected label at both doors, writing nothing, and lets an unprotected one through both', async () => {
    const prompt = await createPromptAs(member, { title: 'Guarded', visibility: 'team', teamId })
    const params = { id: prompt.id }
    expect(
      (await langfuse('POST', '/v2/prompts', { name: prompt.name, prompt: 'two', labels: [] })).status,
    ).toBe(201)
    const versions = (await member.call(promptOperations.versions, { params })).body.items
    const byApp = await member.call(promptLabelOperations.set, {
      params,
      body: { label: 'gold', versionId: versions.find((version) => version.versionNumber === 2)!.id },
    })
    const byLangfuse = await langfuse<{ message: string; error: string }>(
      'PATCH',
      `/v2/prompts/${prompt.name}/versions/2`,
      { newLabels: ['gold'] },
    )
    expect([byApp.status, errorOf(byApp).message]).toEqual([
      403,
      'Only team admins may move the protected label "gold"',
    ])
    expect([byLangfuse.status, byLangfuse.body]).toEqual([
      403,
      {
        message: 'API keys never move the protected label "gold"; a team admin moves it in the app',
        error: 'ForbiddenError',
      },
    ])
    const history = async () => (await member.call(promptLabelOperations.history, { params })).body.items
    expect((await history()).filter((event) => event.label === 'gold')).toEqual([])
    expect((await eventsAbout(prompt.id)).filter((event) => event.data.label === 'gold')).toEqual([])

    expect(
      (await langfuse('PATCH', `/v2/prompts/${prompt.name}/versions/2`, { newLabels: ['beta'] })).status,
    ).toBe(200)
    expect(
      (
        await member.call(promptLabelOperations.set, {
          params,
          body: { label: 'beta', versionId: versions[1]!.id },
        })
      ).status,
    ).toBe(200)
    const moves = (await history()).map((event) => [
      event.label,
      event.fromVersion,
      event.toVersion,
      event.apiKeyName,
    ])
    expect(moves.slice(0, 2)).toEqual([
      ['beta', 2, 1, null],
      ['beta', null, 2, 'Team deploy'],
    ])
  })

  it('writes a new version with the same events and dependency rows from either door', async () => {
    await langfuse('POST', '/v2/prompts', { name: 'shared-part', prompt: 'part', labels: ['production'] })
    const body = 'Use @@@langfusePrompt:name=shared-part|label=production@@@'
    const viaApp = await createPromptAs(admin, { title: 'Via app', visibility: 'team', teamId, body })
    expect(
      (await admin.call(promptOperations.update, { params: { id: viaApp.id }, body: { body: `${body}!` } }))
        .status,
    ).toBe(200)
    await langfuse('POST', '/v2/prompts', { name: 'via-langfuse', prompt: body, labels: ['production'] })
    await langfuse('POST', '/v2/prompts', {
      name: 'via-langfuse',
      prompt: `${body}!`,
      labels: ['production'],
    })
    const viaLangfuse = await promptIdOf('via-langfuse')

    const shapeOf = async (promptId: string) =>
      (await eventsAbout(promptId)).map((event) => [
        event.type,
        event.actor.type,
        event.data.version?.version ?? event.data.toVersion,
        event.data.version?.labels ?? event.data.label,
      ])
    const expected = (actor: string) => [
      ['prompt.created', actor, 1, ['production', 'latest']],
      ['prompt.label.moved', actor, 1, 'production'],
      ['prompt.version.created', actor, 2, ['production', 'latest']],
      ['prompt.label.moved', actor, 2, 'production'],
    ]
    expect(await shapeOf(viaApp.id)).toEqual(expected('user'))
    expect(await shapeOf(viaLangfuse)).toEqual(expected('api_key'))

    const dependencies = await testApp.database.db
      .select({ promptId: promptDependencies.promptId, name: promptDependencies.name })
      .from(promptDependencies)
      .where(inArray(promptDependencies.promptId, [viaApp.id, viaLangfuse]))
    expect(dependencies.filter((row) => row.promptId === viaApp.id)).toEqual([
      { promptId: viaApp.id, name: 'shared-part' },
      { promptId: viaApp.id, name: 'shared-part' },
    ])
    expect(dependencies.filter((row) => row.promptId === viaLangfuse)).toHaveLength(2)
  })

  it('leaves the same audit entry and webhook event for a delete through either door', async () => {
    const viaApp = await createPromptAs(admin, { title: 'Gone by app', visibility: 'team', teamId })
    expect(
      (await langfuse('POST', '/v2/prompts', { name: 'gone-by-key', prompt: 'x', labels: [] })).status,
    ).toBe(201)
    const viaLangfuse = await promptIdOf('gone-by-key')
    expect((await admin.call(promptOperations.delete, { params: { id: viaApp.id } })).status).toBe(204)
    expect((await langfuse('DELETE', '/v2/prompts/gone-by-key')).status).toBe(204)

    const deletedEntry = async (promptId: string) => {
      const entries = (await auditAbout(promptId)).filter((entry) => entry.action === 'prompt.deleted')
      expect(entries).toHaveLength(1)
      const { actorKind, objectType, teamId: team, before, after } = entries[0]!
      return { actorKind, objectType, teamId: team, beforeKeys: Object.keys(before ?? {}).sort(), after }
    }
    const common = {
      objectType: 'prompt',
      teamId,
      beforeKeys: ['name', 'title', 'visibility'],
      after: null,
    }
    expect(await deletedEntry(viaApp.id)).toEqual({ ...common, actorKind: 'user' })
    expect(await deletedEntry(viaLangfuse)).toEqual({ ...common, actorKind: 'api_key' })

    const deletedEvent = async (promptId: string) => {
      const events = (await eventsAbout(promptId)).filter((event) => event.type === 'prompt.deleted')
      expect(events).toHaveLength(1)
      return { actor: events[0]!.actor.type, keys: Object.keys(events[0]!.data.prompt!).sort() }
    }
    const appEvent = await deletedEvent(viaApp.id)
    const langfuseEvent = await deletedEvent(viaLangfuse)
    expect([appEvent.actor, langfuseEvent.actor]).toEqual(['user', 'api_key'])
    expect(appEvent.keys).toEqual(langfuseEvent.keys)
    expect(
      await testApp.database.db
        .select()
        .from(prompts)
        .where(inArray(prompts.id, [viaApp.id, viaLangfuse])),
    ).toEqual([])
  })
})
