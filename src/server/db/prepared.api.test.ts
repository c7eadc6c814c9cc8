import { eq, sql } from 'drizzle-orm'
import { afterAll, expect, it } from 'vitest'
import { createTestApp } from '../testing/test-app.ts'
import { builtOnce } from './prepared.ts'
import { users } from './schema/index.ts'

const testApp = await createTestApp()
afterAll(() => testApp.close())
const { db } = testApp.database

/** Columns of several decoders: text, timestamp (a Date), boolean, `sql` with and without `mapWith`, nulls. */
const columns = {
  id: users.id,
  email: users.email,
  createdAt: users.createdAt,
  deletedAt: users.deletedAt,
  emailVerified: users.emailVerified,
  doubled: sql<number>`2 * 21`.mapWith(Number),
  asText: sql<string>`'forty-two'`,
  nothing: sql<null>`NULL`,
  tags: sql<string[]>`ARRAY['a', 'b']::text[]`,
}

const mapped = builtOnce((database: typeof db) =>
  database
    .select(columns)
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .prepare(''),
)

it('a statement built once answers the same rows as drizzle maps them', async () => {
  const email = `mapped-${Date.now()}@example.test`
  await db.insert(users).values({ id: crypto.randomUUID(), email, name: 'Mapped' })

  const statement = mapped(db, undefined)
  // Mapped by the mapper resolved once, not by drizzle's own.
  expect((statement as unknown as { customResultMapper?: unknown }).customResultMapper).toBeTypeOf('function')
  const [once] = await statement.execute({ email })
  const [drizzleOwn] = await db.select(columns).from(users).where(eq(users.email, email))

  expect(once).toEqual(drizzleOwn)
  expect(once).toMatchObject({
    email,
    deletedAt: null,
    doubled: 42,
    asText: 'forty-two',
    nothing: null,
    tags: ['a', 'b'],
  })
  expect(once!.createdAt).toBeInstanceOf(Date)
  expect(Object.keys(once!)).toEqual(Object.keys(columns))
})
