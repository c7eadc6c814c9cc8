import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import {
  type ExportedPrompt,
  type exportPromptsQuery,
  markdownPathOf,
  type PromptsDocument,
  promptToMarkdownFile,
} from '../../../domain/prompt-transfer.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

let testApp: TestApp
let owner: TestClient
let teamId: string

beforeAll(async () => {
  testApp = await createTestApp()
  await new TestClient(testApp).signUp()
  owner = new TestClient(testApp)
  await owner.signUp()
  teamId = (await createTeamAs(owner, 'Importers')).id
  const triage = await createPromptAs(owner, {
    title: 'Triage',
    name: 'support/triage',
    body: 'One',
    tags: ['ops'],
  })
  await owner.call(promptOperations.update, {
    params: { id: triage.id },
    body: {
      body: 'Two {{ticket}}',
      config: { model: 'm' },
      variables: [{ name: 'ticket', type: 'string', required: true, description: 'The ticket id' }],
      changelog: 'Second',
    },
  })
  await owner.call(promptLabelOperations.set, {
    params: { id: triage.id },
    body: { label: 'staging', versionId: triage.currentVersionId! },
  })
  await createPromptAs(owner, {
    title: 'Chat',
    name: 'chat/helper',
    type: 'chat',
    body: JSON.stringify([
      { role: 'system', content: 'Be {{tone}}' },
      { type: 'placeholder', name: 'history' },
    ]),
  })
})
afterAll(() => testApp.close())

async function exportOf(query: z.input<typeof exportPromptsQuery> = {}) {
  const res = await owner.call(promptOperations.exportPrompts, { query })
  expect(res.status).toBe(200)
  return res.body as PromptsDocument
}

function importInto(document: unknown, options: { teamId?: string | null; dryRun?: boolean } = {}) {
  return owner.call(promptOperations.importPrompts, {
    body: { document, teamId: options.teamId ?? null, dryRun: options.dryRun ?? false },
  })
}

/** What must survive a round trip: everything but ids, dates and the space. */
const comparable = (prompts: ExportedPrompt[]) =>
  prompts
    .map(({ name, title, description, type, tags, currentVersion, versions }) => ({
      name,
      title,
      description,
      type,
      tags,
      currentVersion,
      versions: versions.map(({ version, body, config, changelog, labels }) => ({
        version,
        body,
        config,
        changelog,
        labels,
      })),
    }))
    .sort((a, b) => a.name.localeCompare(b.name))

async function teamPromptCount() {
  const res = await owner.call(promptOperations.list, { query: { scope: 'team', teamId } })
  return res.body.items.length
}

describe('export and import of a space', () => {
  it('previews without changing anything, then imports equal to the original, and a second import changes nothing', async () => {
    const personal = await exportOf()
    expect(personal.format).toBe('promptfolio.prompts/1')
    expect(personal.prompts.map((p) => p.name).sort()).toEqual(['chat/helper', 'support/triage'])

    const preview = await importInto(personal, { teamId, dryRun: true })
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ dryRun: true, created: 2, versioned: 0, unchanged: 0, conflicts: 0 })
    expect(await teamPromptCount()).toBe(0)

    const done = await importInto(personal, { teamId })
    expect(done.body).toMatchObject({ dryRun: false, created: 2, conflicts: 0 })
    const team = await exportOf({ teamId })
    expect(comparable(team.prompts)).toEqual(comparable(personal.prompts))
    expect(team.prompts.every((p) => p.visibility === 'team' && p.team === 'Importers')).toBe(true)

    const again = await importInto(personal, { teamId })
    expect(again.body).toMatchObject({ created: 0, versioned: 0, unchanged: 2 })
    expect(comparable((await exportOf({ teamId })).prompts)).toEqual(comparable(personal.prompts))
  })

  it('adds only the versions a prompt does not have yet, and exports a selection', async () => {
    const personal = await exportOf()
    const triage = personal.prompts.find((p) => p.name === 'support/triage')!
    expect(triage.versions[1]!.variables).toEqual([
      {
        name: 'ticket',
        type: 'string',
        required: true,
        default: null,
        description: 'The ticket id',
        values: [],
      },
    ])
    const longer = {
      ...triage,
      versions: [
        ...triage.versions,
        { ...triage.versions[1]!, version: 3, body: 'Three', labels: ['production'] },
      ],
    }
    const res = await importInto({ prompts: [longer] })
    expect(res.body.items).toEqual([
      { name: 'support/triage', action: 'version', newVersions: 1, problem: null },
    ])
    const selected = await exportOf({ ids: triage.id })
    expect(selected.prompts).toHaveLength(1)
    expect(selected.prompts[0]).toMatchObject({
      currentVersion: 3,
      versions: [{ body: 'One' }, { body: 'Two {{ticket}}' }, { body: 'Three' }],
    })
  })

  it('reads a Langfuse export: versions grouped by name, labels kept', async () => {
    const res = await importInto([
      {
        name: 'lf/greeting',
        version: 2,
        type: 'text',
        prompt: 'Hi {{name}}!',
        config: { t: 1 },
        labels: ['production'],
        tags: ['lf'],
      },
      {
        name: 'lf/greeting',
        version: 1,
        type: 'text',
        prompt: 'Hi {{name}}',
        config: {},
        labels: ['staging'],
        tags: ['lf'],
      },
      { name: 'lf/chat', version: 1, type: 'chat', prompt: [{ role: 'user', content: 'Hello' }], labels: [] },
    ])
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ created: 2, conflicts: 0 })
    const imported = (await exportOf()).prompts.find((p) => p.name === 'lf/greeting')!
    expect(imported.versions.map((v) => [v.body, v.labels])).toEqual([
      ['Hi {{name}}', ['staging']],
      ['Hi {{name}}!', ['production', 'latest']],
    ])
    expect(imported).toMatchObject({ title: 'greeting', tags: ['lf'] })
  })

  it('reads the Markdown files it exports', async () => {
    const chat = (await exportOf()).prompts.find((p) => p.name === 'chat/helper')!
    const taken = new Set<string>()
    const files = [{ ...chat, name: 'md/helper' }].map((p) => ({
      path: markdownPathOf(p.name, taken),
      content: promptToMarkdownFile(p),
    }))
    expect(files[0]!.path).toBe('prompts/md/helper.md')
    const res = await importInto({ files })
    expect(res.body).toMatchObject({ created: 1 })
    const imported = (await exportOf()).prompts.find((p) => p.name === 'md/helper')!
    expect(imported).toMatchObject({
      type: 'chat',
      title: 'Chat',
      versions: [{ body: chat.versions.at(-1)!.body }],
    })
  })

  it('reports a prompt of another type as a conflict and then imports nothing', async () => {
    const document = {
      prompts: [
        { name: 'brand/new', title: 'New', versions: [{ body: 'x' }] },
        {
          name: 'support/triage',
          title: 'Triage',
          type: 'chat',
          versions: [{ body: '[{"role":"user","content":"x"}]' }],
        },
      ],
    }
    const preview = await importInto(document, { dryRun: true })
    expect(preview.body).toMatchObject({ created: 1, conflicts: 1 })
    expect(preview.body.items[1]).toMatchObject({
      name: 'support/triage',
      action: 'conflict',
      problem: 'type',
    })
    const res = await owner.call(promptOperations.importPrompts, { body: { document } })
    expect(res.status).toBe(409)
    expect((await exportOf()).prompts.some((p) => p.name === 'brand/new')).toBe(false)
  })

  it('explains a file it cannot read', async () => {
    const cases: [unknown, string][] = [
      [
        'just text',
        'This file is not a Promptfolio export, a Langfuse export or a set of Markdown prompt files',
      ],
      [{ prompts: [] }, 'This file holds no prompts'],
      [
        { prompts: [{ name: 'ok', title: 'Ok', versions: [] }] },
        'Prompt 1 in the file is invalid (versions): Prompt content is required',
      ],
      [
        {
          prompts: [
            { name: 'a', title: 'A', versions: [{ body: 'x' }] },
            { name: 'a', title: 'A', versions: [{ body: 'y' }] },
          ],
        },
        'The file holds the prompt "a" twice',
      ],
    ]
    for (const [document, message] of cases) {
      const res = await owner.call(promptOperations.importPrompts, { body: { document } })
      expect(res.status, message).toBe(400)
      expect(errorOf(res).message).toBe(message)
    }
  })

  it('is refused for a team the caller is not in', async () => {
    const stranger = new TestClient(testApp)
    await stranger.signUp()
    expect((await stranger.call(promptOperations.exportPrompts, { query: { teamId } })).status).toBe(404)
    const res = await stranger.call(promptOperations.importPrompts, {
      body: { document: { prompts: [] }, teamId },
    })
    expect(res.status).toBe(400)
    const real = await stranger.call(promptOperations.importPrompts, {
      body: { document: { prompts: [{ name: 'x', title: 'X', versions: [{ body: 'x' }] }] }, teamId },
    })
    expect(real.status).toBe(404)
  })
})
