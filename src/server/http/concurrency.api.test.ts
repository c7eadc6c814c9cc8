import { and, eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { conversationOperations } from '../../domain/api/conversations.ts'
import { promptLabelOperations } from '../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../domain/api/prompts.ts'
import { teamOperations } from '../../domain/api/teams.ts'
import { promptLabels, promptVersions, teamMembers } from '../db/schema/index.ts'
import { TestClient } from '../testing/client.ts'
import { addMember, createTeamAs } from '../testing/teams.ts'
import { createTestApp } from '../testing/test-app.ts'

/**
 * Races the product must win on a real database (run on PostgreSQL by the api-postgres project,
 * where the requests really overlap; on PGlite they queue): many writers at once, and afterwards
 * the invariant holds. The other races live with their modules: 50 saves of one prompt
 * (prompts.api.test.ts), creates and invitations at the plan limit and accepts at the member limit
 * (plans.api.test.ts), two accepts of one invitation (invitations.api.test.ts), global admins
 * demoting each other (admin.api.test.ts). Two app processes at once: scale-out.postgres.test.ts.
 */
const testApp = await createTestApp()
afterAll(() => testApp.close())

function signedUp(): Promise<TestClient> {
  return TestClient.signedUp(testApp)
}

describe('label moves at once', () => {
  it('leave each label on exactly one version, at the end of one unbroken chain of moves', async () => {
    const owner = await signedUp()
    const created = await owner.call(promptOperations.create, { body: { title: 'Raced', body: 'v1' } })
    expect(created.status).toBe(201)
    const promptId = created.body.id
    for (let version = 2; version <= 5; version += 1) {
      const saved = await owner.call(promptOperations.update, {
        params: { id: promptId },
        body: { body: `v${version}` },
      })
      expect(saved.status).toBe(200)
    }
    const versions = await testApp.database.db
      .select({ id: promptVersions.id, number: promptVersions.versionNumber })
      .from(promptVersions)
      .where(eq(promptVersions.promptId, promptId))
    expect(versions).toHaveLength(5)

    const moves = Array.from({ length: 40 }, (_, i) => ({
      label: i % 2 === 0 ? 'staging' : 'canary',
      version: versions[i % versions.length]!,
    }))
    const results = await Promise.all(
      moves.map(({ label, version }) =>
        owner.call(promptLabelOperations.set, {
          params: { id: promptId },
          body: { label, versionId: version.id },
        }),
      ),
    )
    expect(results.map((res) => res.status).filter((status) => status !== 200)).toEqual([])

    for (const label of ['staging', 'canary']) {
      const rows = await testApp.database.db
        .select()
        .from(promptLabels)
        .where(and(eq(promptLabels.promptId, promptId), eq(promptLabels.label, label)))
      expect(rows).toHaveLength(1)
      // The history is one chain of moves, in some order: each move starts where another one
      // ended (none lost, none starting from a stale version), the first from nowhere, and the
      // chain ends on the version the label is on now. As multisets: starts + now = ends + start.
      const events = (
        (await testApp.database.db.execute(
          sql`SELECT from_version, to_version FROM prompt_label_events
              WHERE prompt_id = ${promptId} AND label = ${label}`,
        )) as unknown as { rows: { from_version: number | null; to_version: number | null }[] }
      ).rows
      const now = versions.find((version) => version.id === rows[0]!.versionId)!.number
      expect(events.length).toBeGreaterThan(0)
      const sorted = (list: (number | null)[]) => list.map(String).sort()
      expect(sorted([...events.map((event) => event.from_version), now])).toEqual(
        sorted([...events.map((event) => event.to_version), null]),
      )
    }
  })
})

describe('team role changes at once', () => {
  it('never leave a team without an admin', async () => {
    for (let round = 0; round < 3; round += 1) {
      const owner = await signedUp()
      const team = await createTeamAs(owner, `Race ${round}`)
      const admins = [owner]
      for (let i = 0; i < 3; i += 1) {
        const admin = await signedUp()
        await addMember(testApp, owner, team.id, admin, 'admin')
        admins.push(admin)
      }
      // Every admin demotes itself and the next one, all at once.
      const results = await Promise.all(
        admins.flatMap((admin, i) => [
          admin.call(teamOperations.changeRole, {
            params: { teamId: team.id, userId: admin.user!.id },
            body: { role: 'member' },
          }),
          admin.call(teamOperations.changeRole, {
            params: { teamId: team.id, userId: admins[(i + 1) % admins.length]!.user!.id },
            body: { role: 'member' },
          }),
        ]),
      )
      expect(results.filter((res) => res.status >= 500)).toEqual([])
      const left = await testApp.database.db
        .select()
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.role, 'admin')))
      expect(left).toHaveLength(1)
      // Refused ones were refused as such: the last admin (409) or a caller already demoted (403).
      for (const res of results.filter((r) => r.status !== 200)) expect([403, 409]).toContain(res.status)
    }
  })

  it('never leave a team without an admin when admins remove each other and leave', async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner, 'Race removals')
    const admins = [owner]
    for (let i = 0; i < 3; i += 1) {
      const admin = await signedUp()
      await addMember(testApp, owner, team.id, admin, 'admin')
      admins.push(admin)
    }
    const results = await Promise.all(
      admins.flatMap((admin, i) => [
        admin.call(teamOperations.leave, { params: { teamId: team.id } }),
        admin.call(teamOperations.removeMember, {
          params: { teamId: team.id, userId: admins[(i + 1) % admins.length]!.user!.id },
        }),
      ]),
    )
    expect(results.filter((res) => res.status >= 500)).toEqual([])
    const left = await testApp.database.db
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.role, 'admin')))
    expect(left).toHaveLength(1)
  })
})

describe('message appends while a reader pages', () => {
  it('never skip or repeat a message: every pass through the pages is the start of the final order', async () => {
    const owner = await signedUp()
    const conversation = await owner.call(conversationOperations.create, { body: { title: 'Paged' } })
    expect(conversation.status).toBe(201)
    const params = { id: conversation.body.id }
    const total = 60

    /** One pass from the first page to the last, 4 messages a page; the ids in the order seen. */
    async function pass(order: 'asc' | 'desc'): Promise<string[]> {
      const seen: string[] = []
      let cursor: string | undefined
      do {
        const page = await owner.call(conversationOperations.messages, {
          params,
          query: { limit: 4, order, cursor },
        })
        expect(page.status).toBe(200)
        seen.push(...page.body.items.map((message) => message.id))
        cursor = page.body.nextCursor ?? undefined
      } while (cursor)
      return seen
    }

    // Four writers append 15 messages each, every writer one after another, while two readers page
    // through again and again, oldest first and newest first, until the writers are done.
    let writing = true
    const writers = Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let i = 0; i < total / 4; i += 1) {
          const res = await owner.call(conversationOperations.appendMessage, {
            params,
            body: { content: { text: `writer ${writer} message ${i}` } },
          })
          expect(res.status).toBe(201)
        }
      }),
    ).finally(() => {
      writing = false
    })
    const passes: { order: 'asc' | 'desc'; ids: string[] }[] = []
    const readers = (['asc', 'desc'] as const).map(async (order) => {
      do passes.push({ order, ids: await pass(order) })
      while (writing)
    })
    await Promise.all([writers, ...readers])

    const final = await pass('asc')
    expect(final).toHaveLength(total)
    expect(new Set(final).size).toBe(total)
    expect((await pass('desc')).reverse()).toEqual(final)
    // Messages only ever join at the end: a pass oldest first saw the first n of them in order, and
    // a pass newest first saw the first n newest first; none skipped, none twice.
    for (const { order, ids } of passes) {
      const oldestFirst = order === 'asc' ? ids : [...ids].reverse()
      expect(oldestFirst).toEqual(final.slice(0, ids.length))
    }
    expect(passes.length).toBeGreaterThan(2)
  })
})
