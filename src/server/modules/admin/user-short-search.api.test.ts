import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminOperations } from '../../../domain/api/admin.ts'
import { SEARCH_WINDOW_PER_ROW } from '../../db/newest-first.ts'
import { queryRows } from '../../db/rows.ts'
import { TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * The admin user search of one or two characters (decision 0256): the start of the address, newest
 * first, from the newest accounts when they hold a page and from the prefix index beyond them.
 */
let testApp: TestApp
let globalAdmin: TestClient
beforeAll(async () => {
  testApp = await createTestApp()
  globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp('root@admins.test')
  // 60 accounts starting with "zq" (every 7th deleted), two by two sharing a creation time, all
  // older than 400 others that match nothing searched here: a page of 2 reads the newest
  // 3 × SEARCH_WINDOW_PER_ROW = 300 accounts first, which hold no match, so the index answers.
  await testApp.database.db.execute(sql`
    INSERT INTO users (id, name, email, created_at, updated_at, deleted_at)
    SELECT '00000000-0000-4000-8000-' || lpad(i::text, 12, '0'), 'Match ' || i, 'zq' || i || '@short.test',
           timestamptz '2001-01-01' - (i / 2) * interval '1 second', now(),
           CASE WHEN i % 7 = 3 THEN now() END
    FROM generate_series(0, 59) i
    UNION ALL
    SELECT '00000000-0000-4000-9000-' || lpad(i::text, 12, '0'), 'Other ' || i, 'm' || i || '@short.test',
           timestamptz '2010-01-01' + i * interval '1 second', now(), NULL
    FROM generate_series(0, 399) i
    UNION ALL
    SELECT '00000000-0000-4000-a000-' || lpad(n::text, 12, '0'), 'Sign', s || 'x@short.test', timestamptz '2001-01-01', now(), NULL
    FROM unnest(ARRAY['_', '%', 'z_']) WITH ORDINALITY AS signs(s, n)`)
})
afterAll(() => testApp.close())

async function pages(search: string, limit: number): Promise<string[][]> {
  const all: string[][] = []
  let cursor: string | undefined
  do {
    expect(all.length).toBeLessThan(100)
    const res = await globalAdmin.call(adminOperations.users, { query: { search, limit, cursor } })
    expect(res.status).toBe(200)
    all.push(res.body.items.map((item) => item.id))
    cursor = res.body.nextCursor ?? undefined
  } while (cursor)
  return all
}

/** Every account not deleted whose address starts with `prefix`, newest first. */
async function expected(prefix: string): Promise<string[]> {
  const rows = await queryRows<{ id: string }>(
    testApp.database.db,
    sql`SELECT id FROM users WHERE deleted_at IS NULL AND left(email, ${prefix.length}) = ${prefix}
        ORDER BY created_at DESC, id DESC`,
  )
  return rows.map((row) => row.id)
}

describe('a search of one or two characters', () => {
  it('pages through matches older than the newest accounts, newest first, each once', async () => {
    expect(SEARCH_WINDOW_PER_ROW * 3).toBeLessThan(400)
    const want = await expected('zq')
    expect(want).toHaveLength(51)
    for (const limit of [1, 2, 5, 100]) {
      const got = await pages('ZQ', limit)
      expect(got.every((page) => page.length <= limit)).toBe(true)
      expect(got.flat()).toEqual(want)
    }
    expect((await pages('z', 2)).flat()).toEqual(await expected('z'))
  })

  it('takes % and _ literally', async () => {
    for (const search of ['_', '%', 'z_']) {
      const want = await expected(search)
      expect(want).toHaveLength(1)
      expect((await pages(search, 10)).flat()).toEqual(want)
    }
  })

  it('answers characters at the ends of Unicode with no match, not an error', async () => {
    for (const search of ['\u{10FFFF}', '\uD7FF', 'a\u{10FFFF}', '😀']) {
      expect((await pages(search, 10)).flat()).toEqual([])
    }
  })
})
