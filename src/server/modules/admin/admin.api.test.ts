import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AdminUsersPage } from '../../../domain/admin.ts'
import { accountOperations } from '../../../domain/api/account.ts'
import { adminOperations } from '../../../domain/api/admin.ts'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import { mailOperations } from '../../../domain/api/mail.ts'
import { type Operation, operationsOf } from '../../../domain/api/operation.ts'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { encodeCursor } from '../../../domain/cursor.ts'
import { SEARCH_WINDOW_PER_ROW } from '../../db/newest-first.ts'
import { errorOf, TestClient, uniqueEmail } from '../../testing/client.ts'
import { createTeamAs } from '../../testing/teams.ts'
import { createTestApp } from '../../testing/test-app.ts'

const testApp = await createTestApp({}, {})
afterAll(() => testApp.close())

let globalAdmin: TestClient
let user: TestClient
let teamAdmin: TestClient
let teamId: string

beforeAll(async () => {
  globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp(uniqueEmail('first')) // the installation's first account: global admin
  user = new TestClient(testApp)
  await user.signUp(uniqueEmail('plain'))
  teamAdmin = new TestClient(testApp)
  await teamAdmin.signUp(uniqueEmail('teamadmin'))
  teamId = (await createTeamAs(teamAdmin, 'Admins of this one')).id
})

/** `by` sets the global role of `target`. */
const setRole = (
  by: TestClient,
  target: TestClient,
  body: { role: 'user' | 'global_admin'; confirmSelf?: boolean },
) => by.call(adminOperations.setRole, { params: { userId: target.user!.id }, body })

/** A valid request for each operation (the role change names the plain user and changes nothing). */
function call(client: TestClient, operation: Operation) {
  const body = operation.name === 'setRole' ? { role: 'user' } : undefined
  return client.callUnchecked(operation, { params: { userId: user.user!.id }, body })
}

describe.each(operationsOf(adminOperations).map((op) => [op.id, op] as const))('%s', (_, operation) => {
  it('refuses anonymous callers with 401', async () => {
    const res = await call(new TestClient(testApp), operation)
    expect(res.status).toBe(401)
  })

  it("refuses a user and a team admin with 403 'Global admin access required'", async () => {
    for (const client of [user, teamAdmin]) {
      const res = await call(client, operation)
      expect(res.status).toBe(403)
      expect(errorOf(res).message).toBe('Global admin access required')
    }
  })

  it('answers a global admin', async () => {
    const res = await call(globalAdmin, operation)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
  })
})

describe('stats', () => {
  it('counts users, teams, prompts and active users live, and sign-ups per day of 30 days', async () => {
    const before = (await globalAdmin.call(adminOperations.stats, {})).body
    const newcomer = new TestClient(testApp)
    await newcomer.signUp()
    await newcomer.call(promptOperations.create, {
      body: { title: 'Counted', body: 'Body', visibility: 'private' },
    })
    await createTeamAs(newcomer, 'Counted team')
    const after = (await globalAdmin.call(adminOperations.stats, {})).body
    expect(after.totalUsers).toBe(before.totalUsers + 1)
    expect(after.totalTeams).toBe(before.totalTeams + 1)
    expect(after.totalPrompts).toBe(before.totalPrompts + 1)
    expect(after.activeUsers).toBe(before.activeUsers + 1)
    expect(after.windowHours).toBe(720)
    const acquisition = after.userAcquisition
    expect(acquisition.days).toHaveLength(30)
    expect(acquisition.days.at(-1)!.date).toBe(new Date().toISOString().slice(0, 10))
    expect(acquisition.total).toBe(after.totalUsers)
    expect(acquisition.lastDays).toBe(7)
    expect(acquisition.lastDaysCount).toBe(after.totalUsers)
    expect(acquisition.averagePerDay).toBe(Math.round((after.totalUsers / 30) * 10) / 10)
  })

  it('does not count a user whose only sign-in and writes are older than 720 hours as active', async () => {
    const old = new TestClient(testApp)
    const { id } = await old.signUp()
    const before = (await globalAdmin.call(adminOperations.stats, {})).body
    await testApp.database.db.execute(
      sql`UPDATE sessions SET created_at = now() - interval '31 days', updated_at = now() - interval '31 days'
          WHERE user_id = ${id}`,
    )
    await testApp.database.db.execute(
      sql`UPDATE users SET created_at = now() - interval '40 days' WHERE id = ${id}`,
    )
    const after = (await globalAdmin.call(adminOperations.stats, {})).body
    expect(after.activeUsers).toBe(before.activeUsers - 1)
    expect(after.userAcquisition.total).toBe(before.userAcquisition.total - 1)
  })
})

describe('users', () => {
  it('lists users with role, teams, first-user badge, plan and the counts', async () => {
    const res = await globalAdmin.call(adminOperations.users, {})
    expect(res.status).toBe(200)
    const { items, counts } = res.body
    expect(counts.globalAdmins).toBe(1)
    expect(counts.users).toBeGreaterThanOrEqual(3)
    const first = items.find((item) => item.id === globalAdmin.user!.id)!
    expect(first).toMatchObject({ isFirstUser: true, globalRole: 'global_admin' })
    const admin = items.find((item) => item.id === teamAdmin.user!.id)!
    expect(admin).toMatchObject({ isFirstUser: false, globalRole: 'user' })
    expect(admin.teams).toEqual([{ id: teamId, name: 'Admins of this one', role: 'admin' }])
    expect(admin.plan).toEqual({ state: 'unlimited', plan: null })
    // Newest first.
    const times = items.map((item) => item.createdAt)
    expect([...times].sort().reverse()).toEqual(times)
  })

  it('keeps the counts equal to the accounts through sign-ups, role changes, tombstones and deletes', async () => {
    const db = testApp.database.db
    const expectCountsOfTable = async () => {
      const { rows } = (await db.execute(
        sql`SELECT count(*)::int AS users, (count(*) FILTER (WHERE role = 'global_admin'))::int AS admins
            FROM users WHERE deleted_at IS NULL`,
      )) as unknown as { rows: { users: number; admins: number }[] }
      const { counts } = (await globalAdmin.call(adminOperations.users, {})).body
      expect(counts).toEqual({ users: rows[0]!.users, globalAdmins: rows[0]!.admins })
      return counts
    }
    const before = await expectCountsOfTable()
    const [a, b] = [new TestClient(testApp), new TestClient(testApp)]
    await a.signUp()
    await b.signUp()
    expect((await expectCountsOfTable()).users).toBe(before.users + 2)
    await setRole(globalAdmin, a, { role: 'global_admin' })
    expect((await expectCountsOfTable()).globalAdmins).toBe(before.globalAdmins + 1)
    // A deleted account stays as a tombstone (decision 0180); an update that changes neither
    // the role nor the tombstone changes nothing.
    await db.execute(sql`UPDATE users SET deleted_at = now(), role = 'user' WHERE id = ${a.user!.id}`)
    await db.execute(sql`UPDATE users SET name = 'Renamed' WHERE id = ${b.user!.id}`)
    expect(await expectCountsOfTable()).toEqual({ ...before, users: before.users + 1 })
    await db.execute(sql`DELETE FROM users WHERE id IN (${a.user!.id}, ${b.user!.id})`)
    expect(await expectCountsOfTable()).toEqual(before)
  })

  it('searches over the email, case-insensitively, with % and _ taken literally', async () => {
    const res = await globalAdmin.call(adminOperations.users, { query: { search: 'TEAMADMIN' } })
    expect(res.body.items.map((item) => item.id)).toEqual([teamAdmin.user!.id])
    expect(res.body.counts.users).toBeGreaterThanOrEqual(3)
    const none = await globalAdmin.call(adminOperations.users, { query: { search: '%' } })
    expect(none.body.items).toEqual([])
  })

  it('matches the start of the address for a search of one or two characters', async () => {
    const starts = new TestClient(testApp)
    await starts.signUp('qj-starts@example.com')
    const inside = new TestClient(testApp)
    await inside.signUp('inside-qj@example.com')
    const ids = async (search: string) =>
      (await globalAdmin.call(adminOperations.users, { query: { search } })).body.items.map((item) => item.id)
    expect(await ids('QJ')).toEqual([starts.user!.id])
    expect(await ids('q')).toContain(starts.user!.id)
    expect(await ids('q')).not.toContain(inside.user!.id)
    // From three characters on, any part of the address.
    expect(await ids('qj-')).toEqual([starts.user!.id])
    expect(await ids('-qj')).toEqual([inside.user!.id])
    expect(await ids('_')).toEqual([])
  })

  it('pages by cursor through every user exactly once', async () => {
    for (let i = 0; i < 4; i++) await new TestClient(testApp).signUp()
    const all = (await globalAdmin.call(adminOperations.users, { query: { limit: 100 } })).body.items
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: AdminUsersPage = (
        await globalAdmin.call(adminOperations.users, { query: { limit: 2, cursor: cursor ?? undefined } })
      ).body
      expect(page.items.length).toBeLessThanOrEqual(2)
      seen.push(...page.items.map((item) => item.id))
      cursor = page.nextCursor
    } while (cursor)
    expect(seen).toEqual(all.map((item) => item.id))
  })

  it("refuses a malformed cursor with 'Invalid cursor format'", async () => {
    const res = await globalAdmin.call(adminOperations.users, { query: { cursor: 'nonsense' } })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe('Invalid cursor format')
  })

  it('shows a plan changed with the admin plan operation', async () => {
    const plansApp = await createTestApp({ plansEnabled: true })
    try {
      const admin = new TestClient(plansApp)
      await admin.signUp()
      const other = new TestClient(plansApp)
      const { id } = await other.signUp()
      const listed = async () =>
        (await admin.call(adminOperations.users, {})).body.items.find((item) => item.id === id)!.plan
      expect(await listed()).toEqual({ state: 'trial', plan: 'trial' })
      const set = await admin.call(planOperations.adminSetPlan, {
        body: { context: 'personal', subjectId: id, plan: 'pro' },
      })
      expect(set.status).toBe(200)
      expect(await listed()).toEqual({ state: 'active', plan: 'pro' })
      await admin.call(planOperations.adminSetPlan, {
        body: { context: 'personal', subjectId: id, plan: null },
      })
      expect(await listed()).toEqual({ state: 'trial', plan: 'trial' })
    } finally {
      await plansApp.close()
    }
  })
})

describe('users search: the newest accounts first, the trigram index beyond them (decision 0234)', () => {
  // 1,200 accounts older than every other of this file, in threes that share a created_at (the id
  // orders them: 2, 1, 0, 5, 4, 3, …). Words in their addresses, each followed by this run's marker,
  // pick what the searches match: `dense` every 4th account, `sparse` every 130th, `rare`, `edge`
  // and `jürgen` a few. Every 12th account below 600 and two rare ones are deleted. The window of
  // a page of `limit` is the newest SEARCH_WINDOW_PER_ROW × (limit + 1) accounts after the cursor:
  // 300 for pages of 2.
  const marker = Math.floor(Math.random() * 0x1000000)
    .toString(16)
    .padStart(6, '0')
  // Ids as the cursor takes them: uuids, here made of the marker and the account's number.
  const idOf = (i: number) => `${marker}00-0000-4000-8000-${String(i).padStart(12, '0')}`
  const createdAtOf = (i: number) => new Date(Date.UTC(2001, 0, 1) - Math.floor(i / 3) * 1000).toISOString()

  beforeAll(async () => {
    expect(SEARCH_WINDOW_PER_ROW * 3).toBe(300)
    await testApp.database.db.execute(sql`
      INSERT INTO users (id, name, email, created_at, updated_at, deleted_at)
      SELECT ${marker} || '00-0000-4000-8000-' || lpad(i::text, 12, '0'), 'Window ' || i,
             'w' || ${marker} || '-' || i
               || CASE WHEN i % 4 = 0 THEN '.dense-' || ${marker} ELSE '' END
               || CASE WHEN i % 130 = 7 THEN '.sparse-' || ${marker} ELSE '' END
               || CASE WHEN i IN (4, 5, 700, 701, 1100, 1150) THEN '.rare-' || ${marker} ELSE '' END
               || CASE WHEN i IN (800, 1050, 1051, 1052) THEN '.edge-' || ${marker} ELSE '' END
               || CASE WHEN i = 1199 THEN '.jürgen-' || ${marker} ELSE '' END
               || '@window.test',
             timestamptz '2001-01-01' - (i / 3) * interval '1 second',
             timestamptz '2001-01-01' - (i / 3) * interval '1 second',
             CASE WHEN (i % 12 = 0 AND i < 600) OR i IN (4, 1100) THEN now() END
      FROM generate_series(0, 1199) i`)
  })
  // The other tests page through every account.
  afterAll(() => testApp.database.db.execute(sql`DELETE FROM users WHERE id LIKE ${`${marker}00-%`}`))

  /** Every match, as the trigram statement alone answers: newest first, no deleted account. */
  async function allMatches(word: string): Promise<string[]> {
    const { rows } = (await testApp.database.db.execute(
      sql`SELECT id FROM users WHERE deleted_at IS NULL AND email LIKE ${`%.${word}-${marker}%`}
          ORDER BY created_at DESC, id DESC`,
    )) as unknown as { rows: { id: string }[] }
    return rows.map((row) => row.id)
  }

  /** Every page of a search, cursor after cursor, in order (a cursor that leads nowhere fails). */
  async function searchPages(word: string, limit: number, from: string | null = null): Promise<string[][]> {
    const pages: string[][] = []
    let cursor = from
    do {
      expect(pages.length).toBeLessThan(200)
      const res = await globalAdmin.call(adminOperations.users, {
        query: { search: `${word}-${marker}`, limit, cursor: cursor ?? undefined },
      })
      expect(res.status).toBe(200)
      pages.push(res.body.items.map((item) => item.id))
      cursor = res.body.nextCursor
    } while (cursor)
    return pages
  }

  it('answers matches that fill pages among the newest accounts with exactly the newest, in order', async () => {
    const expected = await allMatches('dense')
    expect(expected).toHaveLength(248)
    for (const limit of [2, 7, 50]) {
      const pages = await searchPages('dense', limit)
      expect(pages.flat()).toEqual(expected)
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true)
    }
  })

  it('finds the older matches beyond the window when the newest accounts hold too few', async () => {
    // 5 is in the first window; 700, 701 and 1150 lie beyond it; 4 and 1100 are deleted.
    const expected = [idOf(5), idOf(701), idOf(700), idOf(1150)]
    expect(await allMatches('rare')).toEqual(expected)
    const [first] = await searchPages('rare', 2)
    expect(first).toEqual(expected.slice(0, 2))
    for (const limit of [1, 2, 3, 4, 100]) expect((await searchPages('rare', limit)).flat()).toEqual(expected)
  })

  it('pages by cursor across the edge of the window, some pages from it and some beyond it', async () => {
    // 130 accounts apart: a window of 300 after a cursor holds two or three of them.
    const expected = await allMatches('sparse')
    expect(expected).toHaveLength(10)
    for (const limit of [1, 2, 3]) {
      const pages = await searchPages('sparse', limit)
      expect(pages.flat()).toEqual(expected)
      expect(pages.slice(0, -1).every((page) => page.length === limit)).toBe(true)
    }
  })

  it('ends the window where the page order does, inside accounts created at the same moment', async () => {
    // After 751: 750, then 99 threes (251..349), then 1052 and 1051 make 300; 1050, created with
    // them, is the first account beyond. The window's three matches are 800, 1052 and 1051.
    const cursor = encodeCursor({ at: createdAtOf(751), id: idOf(751) })
    const pages = await searchPages('edge', 2, cursor)
    expect(pages).toEqual([
      [idOf(800), idOf(1052)],
      [idOf(1051), idOf(1050)],
    ])
  })

  it('matches beyond ASCII without regard to case, as ILIKE did', async () => {
    const res = await globalAdmin.call(adminOperations.users, { query: { search: `JÜRGEN-${marker}` } })
    expect(res.body.items.map((item) => item.id)).toEqual([idOf(1199)])
  })

  it('never lists a deleted account, in the window or beyond it', async () => {
    const deleted = [idOf(0), idOf(4), idOf(12), idOf(1100)]
    const listed = [...(await searchPages('dense', 3)), ...(await searchPages('rare', 1))].flat()
    expect(listed.filter((id) => deleted.includes(id))).toEqual([])
  })
})

describe('setRole', () => {
  it('grants the global role, which holds for that user at once, and revokes it again', async () => {
    const other = new TestClient(testApp)
    await other.signUp()
    expect((await other.call(adminOperations.stats, {})).status).toBe(403)

    const granted = await setRole(globalAdmin, other, { role: 'global_admin' })
    expect(granted.status).toBe(200)
    expect(granted.body.globalRole).toBe('global_admin')
    expect((await other.call(adminOperations.stats, {})).status).toBe(200)
    expect((await other.call(accountOperations.me, {})).body.globalRole).toBe('global_admin')
    expect((await globalAdmin.call(adminOperations.users, {})).body.counts.globalAdmins).toBe(2)

    const revoked = await setRole(globalAdmin, other, { role: 'user' })
    expect(revoked.body.globalRole).toBe('user')
    expect((await other.call(adminOperations.stats, {})).status).toBe(403)

    // Both changes are in the audit log, with who did it and the role before and after.
    const { rows } = (await testApp.database.db.execute(
      sql`SELECT action, actor_user_id, object_id, before, after FROM audit_log
          WHERE object_id = ${other.user!.id} AND action LIKE 'global_role.%' ORDER BY created_at, id`,
    )) as unknown as {
      rows: Array<{ action: string; actor_user_id: string; before: unknown; after: unknown }>
    }
    expect(rows.map((row) => [row.action, row.actor_user_id])).toEqual([
      ['global_role.granted', globalAdmin.user!.id],
      ['global_role.revoked', globalAdmin.user!.id],
    ])
    expect(rows[0]!.before).toMatchObject({ role: 'user' })
    expect(rows[0]!.after).toMatchObject({ role: 'global_admin' })
  })

  it('writes no audit entry for a refused change', async () => {
    const count = async () =>
      Number(
        (
          (await testApp.database.db.execute(
            sql`SELECT count(*)::int AS count FROM audit_log WHERE action LIKE 'global_role.%'`,
          )) as unknown as { rows: { count: number }[] }
        ).rows[0]!.count,
      )
    const before = await count()
    expect((await setRole(globalAdmin, globalAdmin, { role: 'user', confirmSelf: true })).status).toBe(409)
    // Asking for the role the user already has changes nothing and records nothing.
    expect((await setRole(globalAdmin, user, { role: 'user' })).status).toBe(200)
    expect(await count()).toBe(before)
  })

  it('never demotes the last global admin', async () => {
    const res = await setRole(globalAdmin, globalAdmin, { role: 'user', confirmSelf: true })
    expect(res.status).toBe(409)
    expect(errorOf(res).message).toBe(
      'The last global admin cannot be demoted. Make someone else global admin first.',
    )
    expect((await globalAdmin.call(adminOperations.stats, {})).status).toBe(200)
  })

  it('demotes yourself only when confirmed', async () => {
    const second = new TestClient(testApp)
    await second.signUp()
    await setRole(globalAdmin, second, { role: 'global_admin' })
    const unconfirmed = await setRole(second, second, { role: 'user' })
    expect(unconfirmed.status).toBe(400)
    expect(errorOf(unconfirmed).fields).toEqual({
      confirmSelf: 'You are about to remove your own global admin role. Confirm to continue.',
    })
    const confirmed = await setRole(second, second, { role: 'user', confirmSelf: true })
    expect(confirmed.status).toBe(200)
    expect((await second.call(adminOperations.stats, {})).status).toBe(403)
  })

  it('answers 404 for an unknown user and 400 for an unknown role', async () => {
    const missing = await globalAdmin.call(adminOperations.setRole, {
      params: { userId: '00000000-0000-4000-8000-000000000000' },
      body: { role: 'global_admin' },
    })
    expect([missing.status, errorOf(missing).message]).toEqual([404, 'User not found'])
    const bad = await globalAdmin.callUnchecked(adminOperations.setRole, {
      params: { userId: user.user!.id },
      body: { role: 'owner' },
    })
    expect(bad.status).toBe(400)
  })

  it('speaks German to a German admin', async () => {
    const res = await setRole(globalAdmin.copy({ locale: 'de' }), globalAdmin, {
      role: 'user',
      confirmSelf: true,
    })
    expect(errorOf(res).message).toContain('Der letzte globale Administrator')
  })

  it('never leaves zero global admins when admins demote each other and themselves at once', async () => {
    for (let round = 0; round < 3; round++) {
      const admins = [
        new TestClient(testApp),
        new TestClient(testApp),
        new TestClient(testApp),
        new TestClient(testApp),
      ]
      for (const admin of admins) {
        await admin.signUp()
        await setRole(globalAdmin, admin, { role: 'global_admin' })
      }
      // The first admin steps down too, so that only these four remain: then all at once, each
      // demoting itself and the next one.
      expect((await setRole(globalAdmin, globalAdmin, { role: 'user', confirmSelf: true })).status).toBe(200)
      const results = await Promise.all(
        admins.flatMap((admin, i) => [
          setRole(admin, admin, { role: 'user', confirmSelf: true }),
          setRole(admin, admins[(i + 1) % admins.length]!, { role: 'user' }),
        ]),
      )
      const [row] = (
        (await testApp.database.db.execute(
          sql`SELECT count(*)::int AS count FROM users WHERE role = 'global_admin'`,
        )) as unknown as { rows: { count: number }[] }
      ).rows
      expect(row!.count).toBe(1)
      // The others found the caller demoted (403), the target the last admin (409), or the target
      // already a user (200, nothing changed).
      for (const res of results) expect([200, 403, 409]).toContain(res.status)
      expect(results.filter((res) => res.status === 409).length).toBeGreaterThanOrEqual(1)
      // The survivor makes the first admin admin again for the next round, then steps down.
      let survivor = admins[0]!
      for (const admin of admins)
        if ((await admin.call(adminOperations.stats, {})).status === 200) survivor = admin
      await setRole(survivor, globalAdmin, { role: 'global_admin' })
      await setRole(survivor, survivor, { role: 'user', confirmSelf: true })
    }
  })

  it('refuses to demote the ADMIN_EMAIL account (it would be promoted again at its next sign-in)', async () => {
    const adminEmail = uniqueEmail('owner')
    const app = await createTestApp({ adminEmail })
    try {
      const owner = new TestClient(app)
      expect((await owner.signUp(adminEmail)).globalRole).toBe('global_admin')
      const other = new TestClient(app)
      await other.signUp()
      await owner.call(adminOperations.setRole, {
        params: { userId: other.user!.id },
        body: { role: 'global_admin' },
      })
      const res = await other.call(adminOperations.setRole, {
        params: { userId: owner.user!.id },
        body: { role: 'user' },
      })
      expect(res.status).toBe(409)
      expect(errorOf(res).message).toContain('ADMIN_EMAIL')
    } finally {
      await app.close()
    }
  })
})

describe('health', () => {
  it('reports the database, migrations, mail backlog, process and version', async () => {
    await globalAdmin.call(mailOperations.sendTest, { body: { to: 'health@example.com' } })
    const res = await globalAdmin.call(adminOperations.health, {})
    expect(res.status).toBe(200)
    const health = res.body
    expect(health.database.kind).toBe(testApp.database.kind)
    expect(health.database.version).toMatch(/^\d+/)
    expect(health.migrations.pending).toEqual([])
    expect(health.migrations.applied).toBe(health.migrations.known)
    expect(health.migrations.latest).toMatch(/\.sql$/)
    expect(health.mail.transport).toBe('log')
    expect(health.process.uptimeSeconds).toBeGreaterThanOrEqual(0)
    expect(health.process.memory.rssBytes).toBeGreaterThan(0)
    expect(health.app.version).toBe(testApp.config.version)
  })
})

describe('buildStatus', () => {
  it('makes a report from live checks and saves it only when its counts change, keeping 10', async () => {
    const first = (await globalAdmin.call(adminOperations.buildStatus, {})).body
    const keys = first.current.areas.flatMap((area) => area.items.map((item) => item.key))
    expect(keys).toEqual(
      expect.arrayContaining([
        'database.reachable',
        'database.migrations',
        'auth.adminExists',
        'mail.transport',
      ]),
    )
    const reachable = first.current.areas[0]!.items.find((item) => item.key === 'database.reachable')!
    expect(reachable.status).toBe('completed')
    // The test process was not started with the start script's flags: the report names them.
    const flags = first.current.areas
      .flatMap((area) => area.items)
      .find((item) => item.key === 'app.nodeFlags')!
    expect(flags.status).toBe('partial')
    expect(flags.evidence).toContain('--no-allocation-site-pretenuring')
    const { summary } = first.current
    expect(summary.completed + summary.partial + summary.missing).toBe(summary.total)
    expect(first.current.version).toBe(testApp.config.version)
    expect(first.history[0]).toMatchObject({ summary, overallStatus: first.current.overallStatus })

    const again = (await globalAdmin.call(adminOperations.buildStatus, {})).body
    expect(again.saved).toBe(false)
    expect(again.history).toHaveLength(first.history.length)

    // Counts that differ from the latest saved report: a new report is saved, the oldest dropped.
    for (let i = 0; i < 12; i++) {
      await testApp.database.db.execute(sql`UPDATE build_reports SET completed = completed + 1`)
      expect((await globalAdmin.call(adminOperations.buildStatus, {})).body.saved).toBe(true)
    }
    const last = (await globalAdmin.call(adminOperations.buildStatus, {})).body
    expect(last.history).toHaveLength(10)
  })

  it('counts failed sign-ins of the last 24 hours', async () => {
    const before = (await globalAdmin.call(adminOperations.buildStatus, {})).body.current
    await new TestClient(testApp).signIn(user.user!.email, 'a wrong password here')
    const after = (await globalAdmin.call(adminOperations.buildStatus, {})).body.current
    expect(after.failedSignInsLast24h).toBe(before.failedSignInsLast24h + 1)
  })
})

describe('probes', () => {
  it('counts conversations and looks up the members of a team, each timed', async () => {
    await teamAdmin.call(conversationOperations.create, { body: { title: 'Probe me' } })
    const res = await globalAdmin.call(adminOperations.probes, { query: { teamId } })
    expect(res.status).toBe(200)
    expect(res.body.conversationCount).toMatchObject({ ok: true })
    expect(res.body.conversationCount.count).toBeGreaterThanOrEqual(1)
    expect(res.body.conversationCount.latencyMs).toBeGreaterThanOrEqual(0)
    expect(res.body.teamMembers).toMatchObject({
      ok: true,
      teamId,
      teamName: 'Admins of this one',
      members: [{ userId: teamAdmin.user!.id, email: teamAdmin.user!.email, role: 'admin' }],
    })
  })

  it('says so when the admin belongs to no team and names none, or names a missing one', async () => {
    const own = (await globalAdmin.call(adminOperations.probes, {})).body.teamMembers
    expect(own).toMatchObject({ ok: false, error: 'no_team', teamId: null, members: [] })
    const missing = await globalAdmin.call(adminOperations.probes, {
      query: { teamId: '00000000-0000-4000-8000-000000000000' },
    })
    expect(missing.body.teamMembers).toMatchObject({ ok: false, error: 'team_not_found' })
    expect((await globalAdmin.call(adminOperations.probes, { query: { teamId: 'x' } })).status).toBe(400)
  })

  it('sends a sign-in code to the admin’s own address, then asks to wait', async () => {
    const fresh = new TestClient(testApp)
    await fresh.signUp()
    await setRole(globalAdmin, fresh, { role: 'global_admin' })
    const res = await fresh.call(adminOperations.probeCodeSignIn, {})
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ ok: true, email: fresh.user!.email })
    const [mail] = (
      (await testApp.database.db.execute(
        sql`SELECT kind FROM mail_outbox WHERE to_address = ${fresh.user!.email} ORDER BY created_at DESC LIMIT 1`,
      )) as unknown as { rows: { kind: string }[] }
    ).rows
    expect(mail).toBeDefined()
    expect((await fresh.call(adminOperations.probeCodeSignIn, {})).status).toBe(429)
    await setRole(globalAdmin, fresh, { role: 'user' })
  })
})
