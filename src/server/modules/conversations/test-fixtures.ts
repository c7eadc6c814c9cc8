import { afterAll, beforeAll } from 'vitest'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import type { Conversation, Message } from '../../../domain/conversations.ts'
import type { Page } from '../../../domain/cursor.ts'
import type { Db } from '../../db/client.ts'
import { prompts, promptVersions } from '../../db/schema/index.ts'
import { TestClient } from '../../testing/client.ts'
import { insertTeam } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/** Test data for the conversation API tests, written straight into the database. */
export interface SeededPrompt {
  id: string
  /** Version ids, version 1 first. */
  versionIds: string[]
}

export async function seedPrompt(
  db: Db,
  options: { owner: CurrentUser; title?: string; teamId?: string; versions?: number },
): Promise<SeededPrompt> {
  const [prompt] = await db
    .insert(prompts)
    .values({
      ownerUserId: options.owner.id,
      title: options.title ?? 'A prompt',
      teamId: options.teamId ?? null,
      visibility: options.teamId ? 'team' : 'private',
    })
    .returning({ id: prompts.id })
  const versions = await db
    .insert(promptVersions)
    .values(
      Array.from({ length: options.versions ?? 1 }, (_, index) => ({
        promptId: prompt!.id,
        versionNumber: index + 1,
        body: `Body of version ${index + 1}`,
        createdByUserId: options.owner.id,
      })),
    )
    .returning({ id: promptVersions.id, versionNumber: promptVersions.versionNumber })
  return {
    id: prompt!.id,
    versionIds: versions.sort((a, b) => a.versionNumber - b.versionNumber).map((v) => v.id),
  }
}

/**
 * The people of the permission matrix: a global admin (the installation's first account), the
 * conversation owner, a member and an admin of the owner's team, the admin of another team, and a
 * stranger. The owner is a member of the team too.
 */
export async function seedPeople(testApp: TestApp) {
  const client = async () => {
    const c = new TestClient(testApp)
    await c.signUp()
    return c
  }
  const globalAdmin = await client()
  const owner = await client()
  const member = await client()
  const teamAdmin = await client()
  const otherAdmin = await client()
  const stranger = await client()
  if (globalAdmin.user?.globalRole !== 'global_admin')
    throw new Error('the first account must be global admin')
  const db = testApp.database.db
  const teamId = await insertTeam(db, 'Research', [
    { userId: owner.user!.id, role: 'member' },
    { userId: member.user!.id, role: 'member' },
    { userId: teamAdmin.user!.id, role: 'admin' },
  ])
  const otherTeamId = await insertTeam(db, 'Elsewhere', [{ userId: otherAdmin.user!.id, role: 'admin' }])
  return {
    anonymous: new TestClient(testApp),
    globalAdmin,
    owner,
    member,
    teamAdmin,
    otherAdmin,
    stranger,
    teamId,
    otherTeamId,
  }
}

export type People = Awaited<ReturnType<typeof seedPeople>>

/**
 * The test file's app with the people of the permission matrix: made before the file's first test,
 * closed after its last. `people` is filled in place, so a file can take it apart at its top.
 */
export function testAppWithPeople() {
  let testApp: TestApp | undefined
  const people = {} as People
  beforeAll(async () => {
    testApp = await createTestApp()
    Object.assign(people, await seedPeople(testApp))
  })
  afterAll(() => testApp?.close())
  const app = () => testApp!
  return { app, people, db: () => app().database.db }
}

export async function createConversation(
  client: TestClient,
  body: { title?: string; teamId?: string | null; firstMessage?: string; tags?: string[] } = {},
): Promise<Conversation> {
  const res = await client.call(conversationOperations.create, { body: { title: 'A conversation', ...body } })
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

export async function appendMessage(
  client: TestClient,
  conversationId: string,
  body: Record<string, unknown> = {},
): Promise<Message> {
  const res = await client.call(conversationOperations.appendMessage, {
    params: { id: conversationId },
    body: { content: { text: 'Hello' }, ...body },
  })
  if (res.status !== 201) throw new Error(`append failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}

/** Reads `page` after page, following `nextCursor` to the end; `between` runs after each page. */
export async function readAllPages<T>(
  page: (cursor: string | undefined) => Promise<{ status: number; body: Page<T> }>,
  between: () => Promise<void> = async () => {},
): Promise<T[]> {
  const items: T[] = []
  let cursor: string | undefined
  do {
    const res = await page(cursor)
    if (res.status !== 200) throw new Error(`page failed: ${res.status} ${JSON.stringify(res.body)}`)
    items.push(...res.body.items)
    cursor = res.body.nextCursor ?? undefined
    await between()
  } while (cursor)
  return items
}
