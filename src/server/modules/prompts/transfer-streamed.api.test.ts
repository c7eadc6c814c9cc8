import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { IMPORT_MAX_BODY_BYTES } from '../../app.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/** The import's body is parsed as it arrives (a Promptfolio export's prompts one at a time): the
 * same document, the same answers and errors as when it was parsed whole. */

let testApp: TestApp
let owner: TestClient
let teamId: string

beforeAll(async () => {
  testApp = await createTestApp()
  owner = new TestClient(testApp)
  await owner.signUp()
  teamId = (await createTeamAs(owner, 'Streamers')).id
})
afterAll(() => testApp.close())

const prompt = (name: string, body = `Body of ${name}`) => ({
  name,
  title: name,
  versions: [{ body }, { body: `${body}, again`, labels: ['staging'] }],
})
const documentOf = (...names: string[]) => ({
  format: 'promptfolio.prompts/1',
  prompts: names.map((n) => prompt(n)),
})

function importRaw(rawBody: string, headers: Record<string, string> = {}) {
  return owner.request<Record<string, unknown>>('POST', '/api/v1/prompts/import', { rawBody, headers })
}

async function namesIn(space: { teamId?: string } = {}) {
  const res = await owner.call(promptOperations.list, {
    query: space.teamId ? { scope: 'team', teamId: space.teamId } : {},
  })
  return res.body.items.map((item) => item.name).sort()
}

describe('the import body, parsed as it arrives', () => {
  it('takes the envelope’s keys in any order: a dry run or a team named after the document counts', async () => {
    const document = JSON.stringify(documentOf('order/a', 'order/b'))
    const dry = await importRaw(`{"document":${document},"dryRun":true}`)
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({ dryRun: true, created: 2 })
    expect(await namesIn()).toEqual([])

    const done = await importRaw(`{"document":${document},"teamId":"${teamId}","dryRun":false}`)
    expect(done.body).toMatchObject({ dryRun: false, created: 2 })
    expect(await namesIn({ teamId })).toEqual(['order/a', 'order/b'])
  })

  it('answers the same items, labels and versions as the prompts say, with progress lines of the total', async () => {
    const names = Array.from({ length: 12 }, (_, index) => `lines/${String(index).padStart(2, '0')}`)
    const res = await owner.send('POST', '/api/v1/prompts/import', {
      body: { teamId: null, dryRun: false, document: documentOf(...names) },
      headers: { Accept: 'application/x-ndjson' },
    })
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
    const progress = lines.filter((line) => line.progress).map((line) => line.progress)
    expect(progress.at(0)).toEqual({ done: 0, total: 12 })
    expect(progress.at(-1)).toEqual({ done: 12, total: 12 })
    expect(lines.at(-1).result.items).toEqual(
      names.map((name) => ({ name, action: 'create', newVersions: 2, problem: null })),
    )
    const triage = (await owner.call(promptOperations.list, { query: { search: 'lines/03' } })).body.items[0]!
    const labels = await owner.call(promptOperations.get, { params: { id: triage.id } })
    expect(labels.body).toMatchObject({ name: 'lines/03', currentVersion: { versionNumber: 2 } })
  })

  it('refuses malformed JSON after prompts it already read, and writes nothing', async () => {
    const whole = JSON.stringify({
      teamId: null,
      dryRun: false,
      document: documentOf('bad/a', 'bad/b', 'bad/c'),
    })
    const cut = whole.indexOf('bad/c')
    for (const rawBody of [
      whole.slice(0, cut), // truncated inside the third prompt
      whole.slice(0, -1), // the envelope never closed
      `${whole} {}`, // trailing garbage
      `${whole.slice(0, cut)}bad/c", "title": tru, ${whole.slice(cut + 7)}`, // a bad literal
      whole.replace('"bad/b"', '"bad/\tb"'), // a raw tab in a string
    ]) {
      const res = await importRaw(rawBody)
      expect(res.status, rawBody.slice(-40)).toBe(400)
      expect(errorOf(res).message).toBe('The request body is not valid JSON.')
    }
    expect(await namesIn()).not.toContain('bad/a')
  })

  it('refuses the first invalid or repeated prompt by its place in the file, after valid ones', async () => {
    const valid = Array.from({ length: 5 }, (_, index) => prompt(`invalid/${index}`))
    const cases: [unknown[], string][] = [
      [
        [...valid, { name: 'invalid/x', title: '', versions: [{ body: 'x' }] }],
        'Prompt 6 in the file is invalid',
      ],
      [
        [...valid, { ...prompt('invalid/deep'), versions: [{ body: 'x', config: deepConfig(25) }] }],
        'Prompt 6 in the file is invalid (versions.0.config)',
      ],
      [[...valid, prompt('invalid/2')], 'The file holds the prompt "invalid/2" twice'],
    ]
    for (const [prompts, message] of cases) {
      const res = await owner.call(promptOperations.importPrompts, { body: { document: { prompts } } })
      expect(res.status, message).toBe(400)
      expect(errorOf(res).message).toContain(message)
    }
    expect((await namesIn()).filter((name) => name.startsWith('invalid/'))).toEqual([])
  })

  it('names the first string the database cannot store, in the document’s order', async () => {
    const prompts = [prompt('nul/a'), prompt('nul/b', 'has \u0000 in it')]
    const inPrompts = await importRaw(JSON.stringify({ document: { prompts }, after: '\u0000' }))
    expect(inPrompts.status).toBe(400)
    expect(errorOf(inPrompts).fields).toEqual({ 'document.prompts.1.versions.0.body': expect.any(String) })
    const before = await importRaw(JSON.stringify({ before: '\u0000', document: { prompts } }))
    expect(errorOf(before).fields).toEqual({ before: expect.any(String) })
    const lone = await importRaw(JSON.stringify({ document: { prompts: [prompt('nul/c', 'lone \ud800')] } }))
    expect(errorOf(lone).fields).toEqual({ 'document.prompts.0.versions.0.body': expect.any(String) })
    expect((await namesIn()).filter((name) => name.startsWith('nul/'))).toEqual([])
  })

  it('reads a repeated key as JSON.parse does: the last one counts', async () => {
    const first = JSON.stringify([prompt('twice/first')])
    const last = JSON.stringify([prompt('twice/last')])
    const res = await importRaw(
      `{"document":{"prompts":${first},"prompts":${last}},"dryRun":true,"dryRun":false}`,
    )
    expect(res.body).toMatchObject({ dryRun: false, created: 1, items: [{ name: 'twice/last' }] })
    expect((await namesIn()).filter((name) => name.startsWith('twice/'))).toEqual(['twice/last'])
  })

  it('takes a byte order mark, deep nesting elsewhere in the body, and answers an empty body as before', async () => {
    const deep = `${'['.repeat(50_000)}${']'.repeat(50_000)}`
    const body = `\ufeff{"x":${deep},"dryRun":true,"document":${JSON.stringify(documentOf('bom/a'))}}`
    const res = await importRaw(body)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ dryRun: true, created: 1 })
    // An empty body is `{}`, as for every operation: without a document.
    const empty = await importRaw('')
    expect(empty.status).toBe(400)
    expect(errorOf(empty).fields).toEqual({ document: 'Invalid value' })
  })

  it('refuses a body over the import’s limit with 413', async () => {
    const res = await importRaw(
      JSON.stringify({ document: { prompts: [prompt('big/a', 'x'.repeat(IMPORT_MAX_BODY_BYTES))] } }),
    )
    expect(res.status).toBe(413)
    expect(errorOf(res).code).toBe('payload_too_large')
  })
})

function deepConfig(levels: number): Record<string, unknown> {
  let config: Record<string, unknown> = { leaf: true }
  for (let level = 1; level < levels; level++) config = { inner: config }
  return config
}
