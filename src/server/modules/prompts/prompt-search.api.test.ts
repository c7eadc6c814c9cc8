import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { snippetParts } from '../../../domain/prompt-search.ts'
import type { listPromptsQuery, PromptPage } from '../../../domain/prompts.ts'
import { TestClient } from '../../testing/client.ts'
import { addMember, createTeamAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

function newUser(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

async function search(
  client: TestClient,
  text: string,
  extra: z.input<typeof listPromptsQuery> = {},
): Promise<PromptPage> {
  const res = await client.call(promptOperations.list, { query: { search: text, ...extra } })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  return res.body
}
/** A search of every version's body, not only the current ones'. */
const ALL_VERSIONS = { versions: 'all' } as const
const titles = (page: PromptPage) => page.items.map((item) => item.title)

describe('GET /api/v1/prompts?search= (titles, descriptions and bodies)', () => {
  it('finds text that only an old version has when asked for every version, and says which version and where', async () => {
    const me = await newUser()
    const prompt = await createPromptAs(me, { title: 'Support reply', body: 'Answer with a zebracorn tone.' })
    const params = { id: prompt.id }
    await me.call(promptOperations.update, { params, body: { body: 'Answer politely.' } })
    await me.call(promptOperations.update, { params, body: { body: 'Answer politely and briefly.' } })
    await createPromptAs(me, { title: 'Unrelated' })

    const page = await search(me, 'zebracorn', ALL_VERSIONS)
    expect(titles(page)).toEqual(['Support reply'])
    const match = page.items[0]!.match!
    expect(match).toMatchObject({ field: 'body', versionNumber: 1, snippet: 'Answer with a zebracorn tone.' })
    expect(snippetParts(match.snippet, match.highlights)).toEqual([
      { text: 'Answer with a ', marked: false },
      { text: 'zebracorn', marked: true },
      { text: ' tone.', marked: false },
    ])
    // The current version is preferred when it matches too.
    expect((await search(me, 'politely', ALL_VERSIONS)).items[0]!.match).toMatchObject({
      field: 'body',
      versionNumber: 3,
    })
  })

  it('reads only the current versions\u2019 bodies unless asked for every version', async () => {
    const me = await newUser()
    const prompt = await createPromptAs(me, { title: 'Support reply', body: 'Answer with a quokka tone.' })
    const params = { id: prompt.id }
    await me.call(promptOperations.update, { params, body: { body: 'Answer politely.' } })
    expect(titles(await search(me, 'quokka'))).toEqual([])
    expect(titles(await search(me, 'quok'))).toEqual([])
    expect(titles(await search(me, 'quokka', { versions: 'current' }))).toEqual([])
    expect((await search(me, 'politely')).items[0]!.match).toMatchObject({ field: 'body', versionNumber: 2 })
    // Making the first version current again makes its body the one searched.
    const versions = await me.call(promptOperations.versions, { params })
    const first = versions.body.items.find((version) => version.versionNumber === 1)!
    expect(
      (await me.call(promptOperations.setCurrentVersion, { params, body: { versionId: first.id } })).status,
    ).toBe(200)
    expect((await search(me, 'quokka')).items[0]!.match).toMatchObject({ field: 'body', versionNumber: 1 })
    expect(titles(await search(me, 'politely'))).toEqual([])
    expect(titles(await search(me, 'polite', ALL_VERSIONS))).toEqual(['Support reply'])
    const bad = await me.callUnchecked(promptOperations.list, { query: { search: 'x', versions: 'some' } })
    expect(bad.status).toBe(400)
  })

  it('matches parts of words and words apart, case-insensitively', async () => {
    const me = await newUser()
    await createPromptAs(me, {
      title: 'Mailer',
      body: 'Summarize the customer EMAIL in three bullet points.',
    })
    await createPromptAs(me, { title: 'Other', body: 'Translate the text.' })
    expect(titles(await search(me, 'summar'))).toEqual(['Mailer'])
    expect(titles(await search(me, 'bullet email'))).toEqual(['Mailer'])
    expect(titles(await search(me, 'ULLET PO'))).toEqual(['Mailer'])
    expect(titles(await search(me, 'nothing like this'))).toEqual([])
  })

  it('ranks title matches over description matches over body matches, whole words over parts', async () => {
    const me = await newUser()
    await createPromptAs(me, { title: 'In the body', body: 'Write a haiku about autumn.' })
    await createPromptAs(me, { title: 'Describes it', description: 'A haiku writer', body: 'Write verse.' })
    await createPromptAs(me, { title: 'Haikus', body: 'Write short poems.' })
    await createPromptAs(me, { title: 'Haiku master', body: 'Write poems.' })
    const page = await search(me, 'haiku')
    expect(titles(page)).toEqual(['Haiku master', 'Haikus', 'Describes it', 'In the body'])
    expect(page.items.map((item) => item.match?.field)).toEqual(['title', 'title', 'description', 'body'])
    expect(page.items[0]!.match!.versionNumber).toBeNull()
    // A part of a word in the description is a description match too, ahead of the body.
    const parts = await search(me, 'haik')
    expect(parts.items.map((item) => item.match?.field)).toEqual(['title', 'title', 'description', 'body'])
  })

  it('ranks body matches too: words in the current version by relevance, then the start of a word, then inside a word, then old versions', async () => {
    const me = await newUser()
    const old = await createPromptAs(me, { title: 'Old only', body: 'Mention the walrus once.' })
    await me.call(promptOperations.update, { params: { id: old.id }, body: { body: 'Nothing here now.' } })
    await createPromptAs(me, { title: 'Inside a word', body: 'Beware the superwalrus.' })
    await createPromptAs(me, { title: 'Part of a word', body: 'Think of walruses and seals.' })
    await createPromptAs(me, {
      title: 'Once',
      body: 'A long text that names the walrus only once among many other words.',
    })
    await createPromptAs(me, { title: 'Often', body: 'Walrus. The walrus sees a walrus.' })
    await createPromptAs(me, { title: 'Walrus in the title', body: 'Unrelated.' })
    const page = await search(me, 'walrus', ALL_VERSIONS)
    expect(titles(page)).toEqual([
      'Walrus in the title',
      'Often',
      'Once',
      'Part of a word',
      'Inside a word',
      'Old only',
    ])
    expect(page.items.map((item) => item.match?.versionNumber ?? null)).toEqual([null, 1, 1, 1, 1, 1])
  })

  it('adds the body\u2019s score to a title match: of two title matches, the one whose body matches too comes first', async () => {
    const me = await newUser()
    const plain = await createPromptAs(me, { title: 'Otter notes', body: 'Nothing else.' })
    await createPromptAs(me, { title: 'Otter with body', body: 'The otter swims.' })
    await createPromptAs(me, { title: 'Otter in an old version', body: 'An otter once.' })
    const old = (await search(me, 'otter in an old')).items[0]!
    await me.call(promptOperations.update, { params: { id: old.id }, body: { body: 'Gone now.' } })
    // The newest change first among equals: the plain title match is changed last.
    await me.call(promptOperations.update, {
      params: { id: plain.id },
      body: { description: 'Changed last.' },
    })
    expect(titles(await search(me, 'otter', ALL_VERSIONS))).toEqual([
      'Otter with body',
      'Otter in an old version',
      'Otter notes',
    ])
    // Searching only the current bodies, the old version's match adds nothing.
    expect(titles(await search(me, 'otter'))).toEqual([
      'Otter with body',
      'Otter notes',
      'Otter in an old version',
    ])
  })

  it('searches a team\u2019s current bodies for its members only, and a team prompt moved to private leaves it', async () => {
    const admin = await newUser()
    const member = await newUser()
    const teamId = (await createTeamAs(admin, 'Search crew')).id
    await addMember(testApp, admin, teamId, member)
    const shared = await createPromptAs(member, {
      title: 'Shared',
      body: 'Greet the narwhal warmly.',
      visibility: 'team',
      teamId,
    })
    await createPromptAs(admin, { title: 'Private', body: 'A narwhal of my own.' })
    const teamSearch = (client: TestClient, text: string) => search(client, text, { scope: 'team', teamId })
    expect(titles(await teamSearch(admin, 'narwhal'))).toEqual(['Shared'])
    expect(titles(await teamSearch(admin, 'arwha'))).toEqual(['Shared'])
    expect((await teamSearch(member, 'warmly')).items[0]!.match).toMatchObject({
      field: 'body',
      versionNumber: 1,
    })
    // Its owner moves it to their private prompts: the team no longer finds it, the owner does.
    const moved = await member.call(promptOperations.update, {
      params: { id: shared.id },
      body: { visibility: 'private' },
    })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    expect(titles(await teamSearch(admin, 'narwhal'))).toEqual([])
    expect(titles(await search(member, 'narwhal'))).toEqual(['Shared'])
    expect(titles(await search(admin, 'narwhal'))).toEqual(['Private'])
  })

  it('pages through ranked results without skipping or repeating', async () => {
    const me = await newUser()
    for (let i = 0; i < 7; i++) await createPromptAs(me, { title: `Title kiwi ${i}` })
    for (let i = 0; i < 6; i++) await createPromptAs(me, { title: `Body ${i}`, body: `Peel the kiwi ${i}.` })
    const seen: string[] = []
    let cursor: string | null = ''
    for (let pages = 0; cursor !== null && pages < 10; pages++) {
      const page: PromptPage = await search(me, 'kiwi', { limit: 4, cursor: cursor || undefined })
      seen.push(...titles(page))
      cursor = page.nextCursor
    }
    expect(seen).toHaveLength(13)
    expect(new Set(seen).size).toBe(13)
    expect(seen.slice(0, 7).every((title) => title.startsWith('Title'))).toBe(true)
  })

  it('keeps to the caller\u2019s prompts and answers odd input without a server error', async () => {
    const me = await newUser()
    const other = await newUser()
    await createPromptAs(other, { title: 'Secret', body: 'Only mine: pomegranate.' })
    await createPromptAs(me, { title: 'Mine', body: 'Text with (parens) & "quotes" | pipes: 100%_done' })
    expect(titles(await search(me, 'pomegranate'))).toEqual([])
    for (const odd of [
      '"',
      '&|!',
      '(',
      ':*',
      "'",
      '\\',
      '-',
      'or',
      '""',
      'a & b',
      '100%_',
      '((x',
      '!!!',
      '<mark>',
    ]) {
      const res = await me.call(promptOperations.list, { query: { search: odd } })
      expect(res.status, odd).toBe(200)
    }
    expect(titles(await search(me, '(parens)'))).toEqual(['Mine'])
    expect(titles(await search(me, '100%_'))).toEqual(['Mine'])
    const bad = await me.call(promptOperations.list, { query: { search: 'x', cursor: 'bm90LWEtY3Vyc29y' } })
    expect(bad.status).toBe(400)
  })
})
