import { afterAll, beforeAll, expect, it } from 'vitest'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { dashboardOperations } from '../../../domain/api/dashboard.ts'
import { langfuseOperations } from '../../../domain/api/langfuse.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { keyPairAuthorization, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'
import { promptFiguresDrift } from './test-fixtures.ts'

/**
 * The figures each prompt keeps for the dashboard (migration 0264): its version count and whether a
 * version newer than its current one exists, kept by triggers through every door that writes
 * versions or moves the current one, and equal at every step to what counting the versions says.
 */
let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

const drift = () => promptFiguresDrift(testApp.database.db)

it('counts versions and knows an older current version, through the app and the Langfuse door', async () => {
  const user = new TestClient(testApp)
  await user.signUp()
  const board = async () => (await user.call(dashboardOperations.get, {})).body
  const prompt = await createPromptAs(user, { title: 'Revised' })
  const id = prompt.id
  await createPromptAs(user, { title: 'Once' })
  expect(await drift()).toEqual([])
  expect((await board()).mostRevised).toEqual([])

  for (const body of ['Second', 'Third']) {
    expect((await user.call(promptOperations.update, { params: { id }, body: { body } })).status).toBe(200)
  }
  expect(await drift()).toEqual([])
  let figures = await board()
  expect(figures.mostRevised.map((row) => [row.title, row.count])).toEqual([['Revised', 3]])
  expect(figures.progress.items.find((step) => step.key === 'currentSet')?.done).toBe(false)

  // Set as Current on version 1: the newer ones now wait.
  const versions = (await user.call(promptOperations.versions, { params: { id }, query: {} })).body.items
  const first = versions.find((version) => version.versionNumber === 1)!
  const set = await user.call(promptOperations.setCurrentVersion, {
    params: { id },
    body: { versionId: first.id },
  })
  expect(set.status).toBe(200)
  expect(await drift()).toEqual([])
  expect((await board()).progress.items.find((step) => step.key === 'currentSet')?.done).toBe(true)

  // The Langfuse door: a new version with production moves the current one to the newest again.
  const key = (await user.call(apiKeyOperations.create, { body: { name: 'deploy', scope: 'read_write' } }))
    .body
  const langfuse = new TestClient(testApp)
  const authorization = { Authorization: keyPairAuthorization(key) }
  const created = await langfuse.call(
    langfuseOperations.create,
    { body: { name: prompt.name, prompt: 'Fourth', labels: ['production'] } },
    authorization,
  )
  expect(created.status).toBe(201)
  expect(await drift()).toEqual([])
  figures = await board()
  expect(figures.mostRevised.map((row) => [row.title, row.count])).toEqual([['Revised', 4]])
  expect(figures.progress.items.find((step) => step.key === 'currentSet')?.done).toBe(false)

  // Deleting versions counts down; deleting the prompt leaves nothing behind.
  const deleted = await langfuse.call(
    langfuseOperations.delete,
    { params: { name: prompt.name }, query: { version: 2 } },
    authorization,
  )
  expect(deleted.status).toBe(204)
  expect(await drift()).toEqual([])
  expect((await board()).mostRevised.map((row) => row.count)).toEqual([3])

  // Version 1 current again, then the newer ones deleted one by one: behind until none is left.
  expect(
    (await user.call(promptOperations.setCurrentVersion, { params: { id }, body: { versionId: first.id } }))
      .status,
  ).toBe(200)
  const behind = async () => (await board()).progress.items.find((step) => step.key === 'currentSet')?.done
  expect(await behind()).toBe(true)
  for (const [version, stillBehind] of [
    [3, true],
    [4, false],
  ] as const) {
    const removed = await langfuse.call(
      langfuseOperations.delete,
      { params: { name: prompt.name }, query: { version } },
      authorization,
    )
    expect(removed.status).toBe(204)
    expect(await drift()).toEqual([])
    expect(await behind()).toBe(stillBehind)
  }
  expect((await user.call(promptOperations.delete, { params: { id } })).status).toBe(204)
  expect(await drift()).toEqual([])
  expect((await board()).mostRevised).toEqual([])
})
