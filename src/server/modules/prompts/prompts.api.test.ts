import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import type { VersionSummary } from '../../../domain/prompts.ts'
import {
  conversationMessagePrompts,
  conversationMessages,
  conversations,
  prompts,
  promptVersions,
  teamMembers,
} from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

let testApp: TestApp
/** The installation's first account is a global admin: it must not gain any right over prompts. */
let globalAdmin: TestClient
let owner: TestClient
let member: TestClient
let stranger: TestClient
let ownerUser: CurrentUser
let memberUser: CurrentUser
let teamId: string

beforeAll(async () => {
  testApp = await createTestApp()
  globalAdmin = new TestClient(testApp)
  owner = new TestClient(testApp)
  member = new TestClient(testApp)
  stranger = new TestClient(testApp)
  const admin = await globalAdmin.signUp()
  expect(admin.globalRole).toBe('global_admin')
  ownerUser = await owner.signUp()
  memberUser = await member.signUp()
  const strangerUser = await stranger.signUp()
  teamId = await insertTeam(testApp.database.db, 'Writers', [
    { userId: ownerUser.id, role: 'admin' },
    { userId: memberUser.id },
  ])
  // The stranger is in a team of their own, which must not help them.
  await insertTeam(testApp.database.db, 'Elsewhere', [{ userId: strangerUser.id, role: 'admin' }])
})
afterAll(() => testApp.close())

const db = () => testApp.database.db

async function versionRows(promptId: string) {
  return db()
    .select()
    .from(promptVersions)
    .where(eq(promptVersions.promptId, promptId))
    .orderBy(promptVersions.versionNumber)
}

describe('POST /api/v1/prompts', () => {
  it('creates the prompt with version 1 as its current version', async () => {
    const res = await owner.call(promptOperations.create, {
      body: {
        title: '  Meeting summary ',
        description: '   ',
        body: '\n  Summarise {notes}.  \n',
        tags: [' work ', '', 'summary', 'work'],
      },
    })
    expect(res.status).toBe(201)
    const prompt = res.body
    expect(prompt.access).toEqual({ edit: true, delete: true, setCurrent: true })
    expect(prompt).toMatchObject({
      ownerUserId: ownerUser.id,
      ownerEmail: ownerUser.email,
      title: 'Meeting summary',
      description: null,
      tags: ['work', 'summary'],
      visibility: 'private',
      teamId: null,
      currentVersionNumber: 1,
      versionCount: 1,
    })
    expect(prompt.currentVersion).toMatchObject({
      id: prompt.currentVersionId,
      versionNumber: 1,
      // The body is kept exactly as sent (decision 0247); the title is trimmed.
      body: '\n  Summarise {notes}.  \n',
      changelog: 'Initial version',
      createdByUserId: ownerUser.id,
    })
  })

  it("writes the default changelog in the author's language", async () => {
    const german = new TestClient(testApp, { locale: 'de-DE' })
    await german.signUp()
    const { currentVersion } = await createPromptAs(german)
    expect(currentVersion!.changelog).toBe('Erste Version')
  })

  it("refuses a blank title or body with the spec's messages, in the caller's language, creating nothing", async () => {
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(prompts)
    const res = await owner.call(promptOperations.create, { body: { title: '  ', body: ' ' } })
    expect(res.status).toBe(400)
    expect(errorOf(res)).toEqual({
      code: 'validation',
      message: 'Title is required',
      fields: { title: 'Title is required', body: 'Prompt content is required' },
    })
    const german = new TestClient(testApp, { locale: 'de' })
    await german.signUp()
    const de = await german.call(promptOperations.create, { body: { title: 'Titel', body: '' } })
    expect(errorOf(de).message).toBe('Prompt-Inhalt ist erforderlich')
    const after = await db().select({ n: sql<number>`count(*)::int` }).from(prompts)
    expect(after[0]!.n).toBe(before[0]!.n)
  })

  it.each([
    [{ title: 'x'.repeat(201), body: 'b' }, 'title', 'Title must be at most 200 characters'],
    [{ title: 't', body: 'b'.repeat(50_001) }, 'body', 'Prompt content must be at most 50,000 characters'],
    [
      { title: 't', description: 'd'.repeat(2001), body: 'b' },
      'description',
      'Description must be at most 2,000 characters',
    ],
    [{ title: 't', body: 'b', tags: ['x'.repeat(51)] }, 'tags', 'A tag must be at most 50 characters'],
    [{ title: 't', body: 'b', tags: 'one' }, 'tags', 'Tags must be a list of words'],
    [{ title: 't', body: 'b', visibility: 'public' }, 'visibility', 'Visibility must be Private or Team'],
    [{ title: 't', body: 'b', visibility: 'team' }, 'teamId', 'Choose a team to share this prompt with'],
    [{ title: 42, body: 'b' }, 'title', 'Title is required'],
  ])('refuses %j', async (input, field, message) => {
    const res = await owner.callUnchecked(promptOperations.create, { body: input })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields?.[field]).toBe(message)
  })

  it("shares with one of the owner's teams only", async () => {
    const shared = await createPromptAs(owner, { visibility: 'team', teamId })
    expect(shared).toMatchObject({ visibility: 'team', teamId })

    const strangersTeam = await insertTeam(testApp.database.db, 'Not yours', [])
    const res = await owner.call(promptOperations.create, {
      body: { title: 't', body: 'b', visibility: 'team', teamId: strangersTeam },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields).toEqual({ teamId: 'Not a member of this team' })

    // A private prompt belongs to no team, whatever was sent.
    const privateOne = await createPromptAs(owner, { visibility: 'private', teamId })
    expect(privateOne.teamId).toBeNull()
  })

  it('needs a signed-in user', async () => {
    const anonymous = new TestClient(testApp)
    expect((await anonymous.call(promptOperations.create, { body: { title: 't', body: 'b' } })).status).toBe(
      401,
    )
  })
})

describe('GET /api/v1/prompts/:id and its versions', () => {
  it('gives the owner every right, a team member the same prompt with none of them', async () => {
    const { id } = await createPromptAs(owner, { visibility: 'team', teamId })
    const mine = await owner.call(promptOperations.get, { params: { id } })
    expect(mine.status).toBe(200)
    expect(mine.body.access).toEqual({ edit: true, delete: true, setCurrent: true })
    const theirs = await member.call(promptOperations.get, { params: { id } })
    expect(theirs.status).toBe(200)
    expect(theirs.body.access).toEqual({ edit: false, delete: false, setCurrent: false })
    expect(theirs.body.ownerEmail).toBe(ownerUser.email)
    expect(theirs.body.currentVersion).toEqual(mine.body.currentVersion)
  })

  it('answers 404 Prompt not found to everyone else, including global admins, and for bad ids', async () => {
    const privatePrompt = await createPromptAs(owner)
    const teamPrompt = await createPromptAs(owner, { visibility: 'team', teamId })
    for (const [client, id] of [
      [member, privatePrompt.id],
      [stranger, privatePrompt.id],
      [stranger, teamPrompt.id],
      [globalAdmin, teamPrompt.id],
      [owner, 'not-a-uuid'],
      [owner, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      for (const operation of [promptOperations.get, promptOperations.versions]) {
        const res = await client.call(operation, { params: { id } })
        expect(res.status, operation.id).toBe(404)
        expect(errorOf(res)).toEqual({ code: 'not_found', message: 'Prompt not found' })
      }
    }
  })

  it('lists versions newest first and reads one version', async () => {
    const prompt = await createPromptAs(owner, { visibility: 'team', teamId })
    const params = { id: prompt.id }
    await owner.call(promptOperations.update, { params, body: { body: 'Second' } })
    const list = await member.call(promptOperations.versions, { params })
    expect(list.body.items.map((v) => [v.versionNumber, v.preview])).toEqual([
      [2, 'Second'],
      [1, 'Say hello to {name}.'],
    ])

    const one = await member.call(promptOperations.version, {
      params: { id: prompt.id, versionId: prompt.currentVersionId! },
    })
    expect(one.status).toBe(200)
    expect(one.body).toMatchObject({ versionNumber: 1, body: 'Say hello to {name}.' })
    // The detail writes its current version's time as the version itself does: ISO, to the millisecond.
    const detail = await member.call(promptOperations.get, { params })
    const current = await member.call(promptOperations.version, {
      params: { id: prompt.id, versionId: detail.body.currentVersionId! },
    })
    expect(detail.body.currentVersion!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(detail.body.currentVersion!.createdAt).toBe(current.body.createdAt)

    const other = await createPromptAs(owner)
    for (const versionId of [other.currentVersionId!, 'nope']) {
      const res = await owner.call(promptOperations.version, { params: { id: prompt.id, versionId } })
      expect(res.status).toBe(404)
      expect(errorOf(res).message).toBe('Version not found')
    }
  })

  it('pages the history by version number, newest first, with only a preview of each body', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    const long = `${'x'.repeat(250)} end`
    for (const body of ['two', long, 'four'])
      await owner.call(promptOperations.update, { params, body: { body } })
    const pageAfter = (cursor?: string) =>
      owner.call(promptOperations.versions, { params, query: { limit: 3, cursor } })
    const seen: VersionSummary[] = []
    let cursor: string | null = null
    do {
      const page = await pageAfter(cursor ?? undefined)
      expect(page.status).toBe(200)
      expect(page.body.items.length).toBeLessThanOrEqual(3)
      seen.push(...page.body.items)
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen.map((v) => v.versionNumber)).toEqual([4, 3, 2, 1])
    const third = seen.find((v) => v.versionNumber === 3)!
    expect(third).not.toHaveProperty('body')
    expect(third.preview).toBe(`${'x'.repeat(200)}…`)
    expect(third.bodyLength).toBe(long.length)
    const bad = await owner.call(promptOperations.versions, { params, query: { cursor: btoa('x|y') } })
    expect(bad.status).toBe(400)
    expect(errorOf(bad).message).toBe('Invalid cursor format')
  })

  it('stops showing a team prompt the moment the member leaves the team', async () => {
    const prompt = await createPromptAs(owner, { visibility: 'team', teamId })
    const params = { id: prompt.id }
    const leaver = new TestClient(testApp)
    const leaverUser = await leaver.signUp()
    await db().insert(teamMembers).values({ teamId, userId: leaverUser.id, role: 'member' })
    expect((await leaver.call(promptOperations.get, { params })).status).toBe(200)
    await db()
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, leaverUser.id)))
    expect((await leaver.call(promptOperations.get, { params })).status).toBe(404)
  })
})

describe('PATCH /api/v1/prompts/:id (save)', () => {
  it('updates metadata without a new version when the body is unchanged', async () => {
    const prompt = await createPromptAs(owner, { tags: ['a'] })
    const res = await owner.call(promptOperations.update, {
      params: { id: prompt.id },
      body: {
        title: 'Renamed',
        description: 'Now described',
        tags: ['b', ' b ', 'c'],
        body: prompt.currentVersion!.body,
        changelog: 'ignored',
        baseVersionId: prompt.currentVersionId,
      },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      title: 'Renamed',
      description: 'Now described',
      tags: ['b', 'c'],
      versionCount: 1,
    })
    expect(new Date(res.body.updatedAt).getTime()).toBeGreaterThan(new Date(prompt.updatedAt).getTime())
  })

  it('keeps a body exactly as sent: surrounding whitespace is text too', async () => {
    const prompt = await createPromptAs(owner, { body: '\nIntro\n\n' })
    const params = { id: prompt.id }
    expect(prompt.currentVersion!.body).toBe('\nIntro\n\n')
    const res = await owner.call(promptOperations.update, {
      params,
      body: { body: '\nIntro\n', baseVersionId: prompt.currentVersionId },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ versionCount: 2, currentVersion: { body: '\nIntro\n' } })
    const blank = await owner.call(promptOperations.update, { params, body: { body: ' \n\t ' } })
    expect(blank.status).toBe(400)
    expect(errorOf(blank).fields).toEqual({ body: 'Prompt content is required' })
  })

  it('adds the next version and makes it current when the body changes', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    const second = await owner.call(promptOperations.update, {
      params,
      body: { body: 'Version two', changelog: '   ', baseVersionId: prompt.currentVersionId },
    })
    expect(second.status).toBe(200)
    const history = await owner.call(promptOperations.versions, { params })
    expect(history.body.items.map((v) => [v.versionNumber, v.changelog])).toEqual([
      [2, 'Updated prompt content'],
      [1, 'Initial version'],
    ])
    expect(second.body).toMatchObject({
      currentVersionId: history.body.items[0]!.id,
      currentVersionNumber: 2,
      currentVersion: { body: 'Version two' },
      versionCount: 2,
    })
    const third = await owner.call(promptOperations.update, {
      params,
      body: {
        body: 'Version three',
        changelog: '  Tighter wording ',
        baseVersionId: second.body.currentVersionId,
      },
    })
    expect(third.body.currentVersion).toMatchObject({ versionNumber: 3, changelog: 'Tighter wording' })
  })

  it('refuses a save based on a version that is no longer current (409), changing nothing', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    await owner.call(promptOperations.update, { params, body: { body: 'Saved in another tab' } })
    const res = await owner.call(promptOperations.update, {
      params,
      body: { title: 'Stale title', body: 'Stale body', baseVersionId: prompt.currentVersionId },
    })
    expect(res.status).toBe(409)
    expect(errorOf(res)).toMatchObject({ code: 'conflict', reason: 'stale_version' })
    expect(errorOf(res).message).toContain('version 2 is now current')
    const after = await owner.call(promptOperations.get, { params })
    expect(after.body.title).toBe('A prompt')
    expect(after.body.versionCount).toBe(2)
  })

  it('gives 50 concurrent saves of one prompt 50 consecutive versions, without an error', async () => {
    const prompt = await createPromptAs(owner)
    const saves = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        owner.call(promptOperations.update, { params: { id: prompt.id }, body: { body: `Body ${i}` } }),
      ),
    )
    expect(saves.map((res) => res.status)).toEqual(Array(50).fill(200))
    const rows = await versionRows(prompt.id)
    expect(rows.map((row) => row.versionNumber)).toEqual(Array.from({ length: 51 }, (_, i) => i + 1))
    expect(new Set(rows.map((row) => row.body)).size).toBe(51)
    const [current] = await db().select().from(prompts).where(eq(prompts.id, prompt.id))
    expect(current!.currentVersionId).toBe(rows.at(-1)!.id)
  })

  it('refuses a new version once a prompt has 1,000, keeping metadata changes possible', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    await db()
      .insert(promptVersions)
      .values(
        Array.from({ length: 998 }, (_, i) => ({
          promptId: prompt.id,
          versionNumber: i + 2,
          body: `v${i + 2}`,
        })),
      )
    const last = await owner.call(promptOperations.update, { params, body: { body: 'The thousandth' } })
    expect(last.status).toBe(200)
    expect(last.body.currentVersionNumber).toBe(1000)
    const refused = await owner.call(promptOperations.update, {
      params,
      body: { title: 'New', body: 'One more' },
    })
    expect(refused.status).toBe(409)
    expect(errorOf(refused)).toMatchObject({
      code: 'conflict',
      reason: 'version_limit',
      message: 'This prompt has reached its limit of 1,000 versions. Save your text as a new prompt instead.',
    })
    expect((await versionRows(prompt.id)).length).toBe(1000)
    const renamed = await owner.call(promptOperations.update, { params, body: { title: 'Renamed' } })
    expect(renamed.body).toMatchObject({ title: 'Renamed', versionCount: 1000 })
  })

  it('moves a prompt between private and one of the owner teams', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    const shared = await owner.call(promptOperations.update, { params, body: { visibility: 'team', teamId } })
    expect(shared.body).toMatchObject({ visibility: 'team', teamId })
    expect((await member.call(promptOperations.get, { params })).status).toBe(200)

    const missingTeam = await owner.call(promptOperations.update, {
      params,
      body: { visibility: 'team', teamId: null },
    })
    expect(errorOf(missingTeam).fields).toEqual({ teamId: 'Choose a team to share this prompt with' })

    const unshared = await owner.call(promptOperations.update, { params, body: { visibility: 'private' } })
    expect(unshared.body).toMatchObject({ visibility: 'private', teamId: null })
    expect((await member.call(promptOperations.get, { params })).status).toBe(404)
  })

  it('refuses a blank title or body', async () => {
    const prompt = await createPromptAs(owner)
    const res = await owner.call(promptOperations.update, {
      params: { id: prompt.id },
      body: { title: ' ', body: '' },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).fields).toEqual({ title: 'Title is required', body: 'Prompt content is required' })
  })

  it('is for the owner only: 403 for a team member, 404 for others', async () => {
    const prompt = await createPromptAs(owner, { visibility: 'team', teamId })
    const params = { id: prompt.id }
    const res = await member.call(promptOperations.update, { params, body: { title: 'Mine now' } })
    expect(res.status).toBe(403)
    expect(errorOf(res)).toEqual({
      code: 'forbidden',
      message: 'You do not have permission to edit this prompt',
    })
    expect((await stranger.call(promptOperations.update, { params, body: { title: 'x' } })).status).toBe(404)
    expect((await globalAdmin.call(promptOperations.update, { params, body: { title: 'x' } })).status).toBe(
      404,
    )
    const after = await owner.call(promptOperations.get, { params })
    expect(after.body.title).toBe('A prompt')
  })
})

describe('PUT /api/v1/prompts/:id/current-version', () => {
  it('lets the owner make an earlier version current', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    await owner.call(promptOperations.update, { params, body: { body: 'Two' } })
    const res = await owner.call(promptOperations.setCurrentVersion, {
      params,
      body: { versionId: prompt.currentVersionId! },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      currentVersionId: prompt.currentVersionId,
      currentVersionNumber: 1,
      versionCount: 2,
    })
  })

  it('answers Version not found for a version of another prompt or a bad id', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    const other = await createPromptAs(owner)
    for (const versionId of [other.currentVersionId!, 'garbage', '00000000-0000-4000-8000-000000000000']) {
      const res = await owner.call(promptOperations.setCurrentVersion, { params, body: { versionId } })
      expect(res.status).toBe(404)
      expect(errorOf(res)).toEqual({ code: 'not_found', message: 'Version not found' })
    }
    const missing = await owner.callUnchecked(promptOperations.setCurrentVersion, { params, body: {} })
    expect(missing.status).toBe(400)
  })

  it('is for the owner only', async () => {
    const prompt = await createPromptAs(owner, { visibility: 'team', teamId })
    const params = { id: prompt.id }
    const body = { versionId: prompt.currentVersionId! }
    const res = await member.call(promptOperations.setCurrentVersion, { params, body })
    expect(res.status).toBe(403)
    expect(errorOf(res).message).toBe('You do not have permission to edit this prompt')
    expect((await stranger.call(promptOperations.setCurrentVersion, { params, body })).status).toBe(404)
  })
})

describe('DELETE /api/v1/prompts/:id', () => {
  async function attachToAConversation(promptId: string, versionId: string) {
    const [conversation] = await db()
      .insert(conversations)
      .values({ title: 'Chat', ownerUserId: ownerUser.id })
      .returning()
    const [message] = await db()
      .insert(conversationMessages)
      .values({ conversationId: conversation!.id, role: 'user', content: { text: 'hi' } })
      .returning()
    await db().insert(conversationMessagePrompts).values({
      messageId: message!.id,
      promptId,
      promptVersionId: versionId,
      attachedByUserId: ownerUser.id,
    })
  }

  it('deletes the prompt with its versions and attachments', async () => {
    const prompt = await createPromptAs(owner)
    const params = { id: prompt.id }
    await owner.call(promptOperations.update, { params, body: { body: 'Two' } })
    await attachToAConversation(prompt.id, prompt.currentVersionId!)

    const res = await owner.call(promptOperations.delete, { params })
    expect(res.status).toBe(204)
    const gone = await owner.call(promptOperations.get, { params })
    expect(gone.status).toBe(404)
    expect(await versionRows(prompt.id)).toEqual([])
    const attachments = await db()
      .select()
      .from(conversationMessagePrompts)
      .where(eq(conversationMessagePrompts.promptId, prompt.id))
    expect(attachments).toEqual([])
    expect((await owner.call(promptOperations.delete, { params })).status).toBe(404)
  })

  it("refuses a team member with the spec's message and hides the prompt from others", async () => {
    const prompt = await createPromptAs(owner, { visibility: 'team', teamId })
    const params = { id: prompt.id }
    const res = await member.call(promptOperations.delete, { params })
    expect(res.status).toBe(403)
    expect(errorOf(res)).toEqual({
      code: 'forbidden',
      message: 'You do not have access to delete this prompt.',
    })
    expect((await stranger.call(promptOperations.delete, { params })).status).toBe(404)
    expect((await globalAdmin.call(promptOperations.delete, { params })).status).toBe(404)
    expect((await owner.call(promptOperations.get, { params })).status).toBe(200)
  })
})

describe('atomic writes', () => {
  /**
   * Makes the database refuse any new version whose body is `body`, as a crash or a lost
   * connection would between the writes of one save, and removes that trap afterwards.
   */
  async function withFailingVersionInsert(body: string, run: () => Promise<void>) {
    await db().execute(
      sql.raw(`CREATE FUNCTION fail_version_insert() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.body = '${body}' THEN RAISE EXCEPTION 'version insert failed'; END IF;
          RETURN NEW;
        END $$`),
    )
    await db().execute(
      sql`CREATE TRIGGER fail_version_insert BEFORE INSERT ON prompt_versions
          FOR EACH ROW EXECUTE FUNCTION fail_version_insert()`,
    )
    try {
      await run()
    } finally {
      await db().execute(sql`DROP TRIGGER fail_version_insert ON prompt_versions`)
      await db().execute(sql`DROP FUNCTION fail_version_insert()`)
    }
  }

  it('leaves no prompt behind when its version 1 cannot be written', async () => {
    await withFailingVersionInsert('Doomed body', async () => {
      const res = await owner.call(promptOperations.create, {
        body: { title: 'Half-created', body: 'Doomed body' },
      })
      expect(res.status).toBe(500)
    })
    const leftovers = await db().select().from(prompts).where(eq(prompts.title, 'Half-created'))
    expect(leftovers).toEqual([])
  })

  it('keeps the old metadata when the new version of a save cannot be written', async () => {
    const prompt = await createPromptAs(owner, { tags: ['before'] })
    const params = { id: prompt.id }
    await withFailingVersionInsert('Doomed body', async () => {
      const res = await owner.call(promptOperations.update, {
        params,
        body: {
          title: 'Half-saved',
          tags: ['after'],
          body: 'Doomed body',
          baseVersionId: prompt.currentVersionId,
        },
      })
      expect(res.status).toBe(500)
    })
    const after = await owner.call(promptOperations.get, { params })
    expect(after.body).toMatchObject({ title: 'A prompt', tags: ['before'], versionCount: 1 })
    expect(after.body.updatedAt).toBe(prompt.updatedAt)
  })
})

describe('signed out', () => {
  it('gets 401 from every prompt endpoint', async () => {
    const anonymous = new TestClient(testApp)
    const id = '00000000-0000-4000-8000-000000000000'
    const calls = [
      anonymous.call(promptOperations.list, {}),
      anonymous.call(promptOperations.tags, {}),
      anonymous.call(promptOperations.get, { params: { id } }),
      anonymous.call(promptOperations.versions, { params: { id } }),
      anonymous.call(promptOperations.update, { params: { id }, body: { title: 't' } }),
      anonymous.call(promptOperations.delete, { params: { id } }),
      anonymous.call(promptOperations.setCurrentVersion, { params: { id }, body: { versionId: id } }),
    ]
    for (const res of await Promise.all(calls)) expect(res.status).toBe(401)
  })
})
