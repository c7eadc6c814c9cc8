import { afterAll, beforeAll, expect, it } from 'vitest'
import { operationGroups } from '../../domain/api/index.ts'
import { operationsOf } from '../../domain/api/operation.ts'
import { webhookOperations } from '../../domain/api/webhooks.ts'
import { isErrorBody } from '../../domain/errors.ts'
import {
  type ApiObjects,
  validParam as paramOf,
  sampleBody as sampleOf,
  seedApiObjects,
} from '../testing/api-samples.ts'
import { TestClient } from '../testing/client.ts'
import { createTestApp } from '../testing/test-app.ts'
import { servedRoutes } from './operation-routes.ts'

/**
 * Malformed input for every route of the app: bad path parameters, broken and wrongly typed bodies
 * (each field of a valid body replaced in turn), hostile query strings. Whatever arrives, the
 * answer is never a 5xx, and every error has the one error shape. The routes come from the Hono
 * app itself, so a new route without a sample body below fails the first test.
 *
 * Fields × hostile values and query names × bad values are matrices: `npm test` sends a stripe of
 * each that still gives every field, name and value a turn (a quarter to a third of the requests:
 * this file was a quarter of the API suite's time), and `npm run test:reliability` sends them
 * whole (FUZZ_MATRIX=full).
 */
const fullMatrix = process.env.FUZZ_MATRIX === 'full'

/**
 * Whether cell (row, column) of a matrix with `rows` rows is sent: all of them with FUZZ_MATRIX=full,
 * else a diagonal stripe, one cell in `stride` of each row, in which every column still has a cell
 * when there are at least `stride` rows.
 */
function inStripe(row: number, column: number, rows: number, stride: number): boolean {
  return fullMatrix || (row + column) % Math.min(stride, rows) === 0
}

const testApp = await createTestApp()
afterAll(() => testApp.close())

let fx: ApiObjects
beforeAll(async () => {
  const admin = new TestClient(testApp)
  await admin.signUp() // the first account: a global admin
  fx = await seedApiObjects(testApp, admin, admin)
})
const sampleBody = (route: Route) => sampleOf(route, fx)
const validParam = (route: Route, name: string) => paramOf(route, name, fx)

type Route = { method: string; path: string }
const routes: Route[] = [
  ...new Map(
    servedRoutes(testApp.app)
      .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/'))
      .map((route) => [`${route.method} ${route.path}`, { method: route.method, path: route.path }]),
  ).values(),
]

/** Routes whose success changes the fixtures whatever the body: only tried with bad parameters. */
const isBodylessAction = (route: Route) =>
  route.method === 'DELETE' ||
  /\/(leave|accept|resend|retry|revert|rotate|redeliver)$/.test(route.path) ||
  route.path === `/api${webhookOperations.sendTest.spec.path}`

// Destructive routes last, better-auth's (one of which signs out) at the very end.
const rank = (route: Route) => (route.path.startsWith('/api/auth/') ? 2 : isBodylessAction(route) ? 1 : 0)
routes.sort((a, b) => rank(a) - rank(b))

/** Declared writes that take no body (`POST /api/v1/me/exports`). */
const declaredWithoutBody = new Set(
  operationGroups
    .flatMap((group) => operationsOf(group))
    .filter((operation) => !operation.spec.body)
    .map((operation) => `${operation.spec.method} /api${operation.spec.path}`),
)

/** Writes without a body: their handlers never read one. */
const noBody = (route: Route) =>
  isBodylessAction(route) ||
  route.method === 'GET' ||
  declaredWithoutBody.has(`${route.method} ${route.path}`)

const hostileStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x'.repeat(100_000),
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '%_\\',
  '2026-02-30T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
]
const hostileValues: unknown[] = [
  ...hostileStrings,
  null,
  true,
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  [],
  [null],
  ['\u0000'],
  [{}],
  Array.from({ length: 1000 }, (_, i) => `tag${i}`),
  {},
  { text: 1 },
]

const rawBodies = [
  '{',
  '{"a":',
  'null',
  'true',
  '1',
  '"text"',
  '[]',
  '[{}]',
  '{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
]

/** Every leaf of a sample body, as a path of keys and indexes. */
function leafPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => leafPaths(item, [...path, index]))
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...path, key]))
  }
  return [path]
}

function withValueAt(body: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>
  let at = copy
  for (const key of path.slice(0, -1)) at = at[key] as Record<string | number, unknown>
  at[path.at(-1)!] = replacement
  return copy
}

/** Malformed bodies for a route: broken JSON, wrong top-level types, each field of a valid body replaced. */
function bodyVariants(route: Route): Array<{ raw: string; contentType?: string }> {
  const variants: Array<{ raw: string; contentType?: string }> = rawBodies.map((raw) => ({ raw }))
  const sample = sampleBody(route)
  if (!sample) return variants
  variants.push({ raw: JSON.stringify(sample), contentType: 'text/plain' })
  variants.push({
    raw: new URLSearchParams({ a: 'b' }).toString(),
    contentType: 'application/x-www-form-urlencoded',
  })
  variants.push({ raw: JSON.stringify({ ...sample, unexpected: '\u0000' }) })
  const paths = [...leafPaths(sample), ...Object.keys(sample).map((key) => [key])]
  for (const [row, path] of paths.entries()) {
    for (const [column, value] of hostileValues.entries()) {
      if (inStripe(row, column, paths.length, 4))
        variants.push({ raw: JSON.stringify(withValueAt(sample, path, value)) })
    }
  }
  return variants
}

const badParams = [
  'x',
  '0',
  '-1',
  '00000000-0000-0000-0000-000000000000',
  'a%00b',
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
  'x'.repeat(2000),
  '%27%20OR%201%3D1--',
  '%20',
  'null',
]

/** Concrete paths: all parameters valid (unless destructive), then each one bad in turn. */
function pathVariants(route: Route): string[] {
  if (route.path === '/api/auth/*') {
    return [
      '/api/auth/sign-in/social',
      '/api/auth/get-session',
      '/api/auth/list-sessions',
      '/api/auth/callback/google',
      '/api/auth/callback/x%00',
      '/api/auth/error',
      '/api/auth/verify-email',
      '/api/auth/update-user',
      '/api/auth/reset-password/x',
      '/api/auth/revoke-other-sessions',
      '/api/auth/sign-out',
    ]
  }
  const names = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1]!)
  const fill = (bad?: { name: string; value: string }) =>
    route.path.replace(/:(\w+)/g, (_, name: string) =>
      bad?.name === name ? bad.value : validParam(route, name),
    )
  const paths = isBodylessAction(route) && names.length > 0 ? [] : [fill()]
  for (const name of names) for (const value of badParams) paths.push(fill({ name, value }))
  return paths
}

const queryNames = [
  'scope',
  'teamId',
  'search',
  'tags',
  'visibility',
  'cursor',
  'limit',
  'order',
  'status',
  'to',
  'from',
  'actor',
  'action',
]
const badQueryValues = [
  '',
  '%00',
  'a%00b',
  'x'.repeat(3000),
  '-1',
  '0',
  '1e999',
  '99999999999999999999',
  'NaN',
  '%25_%5C',
  '%E0%A4%A',
  encodeURIComponent(btoa('2026-02-30T00:00:00Z|00000000-0000-0000-0000-000000000000')),
  encodeURIComponent(btoa(`${'9'.repeat(500)}|x`)),
]

function queryVariants(): string[] {
  const queries = queryNames.flatMap((name, row) =>
    badQueryValues
      .filter((_, column) => inStripe(row, column, queryNames.length, 3))
      .map((value) => `?${name}=${value}`),
  )
  queries.push(`?tags=${Array.from({ length: 300 }, (_, i) => `t${i}`).join('&tags=')}`)
  queries.push('?scope=team&scope=owner&limit=1&limit=2')
  return queries
}

function describeFailure(status: number, method: string, path: string, body: unknown, sent?: string) {
  return `${status} ${method} ${path.slice(0, 120)} ${sent?.slice(0, 80) ?? ''} -> ${JSON.stringify(body).slice(0, 160)}`
}

/** The Langfuse-compatible routes answer Langfuse's `{message, error}` instead (decision 0150). */
function isLangfuseError(path: string, body: unknown): boolean {
  return (
    path.startsWith('/api/public/') &&
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string' &&
    'error' in body
  )
}

async function fuzz(route: Route): Promise<{ sent: number; failures: string[] }> {
  const failures: string[] = []
  let sent = 0
  const send = async (method: string, path: string, body?: { raw: string; contentType?: string }) => {
    // A copy per request: a sign-in or sign-up that succeeds must not change who the next one is.
    const client = fx.owner.copy()
    const headers = {
      ...(body?.contentType && { 'Content-Type': body.contentType }),
      ...(path.startsWith('/api/public/') && { Authorization: fx.basicAuth }),
    }
    const res = await client.request(method, path, { rawBody: body?.raw, headers })
    sent += 1
    if (res.status >= 500) failures.push(describeFailure(res.status, method, path, res.body, body?.raw))
    else if (res.status >= 400 && !isErrorBody(res.body) && !isLangfuseError(path, res.body)) {
      failures.push(`not the error shape: ${describeFailure(res.status, method, path, res.body, body?.raw)}`)
    }
  }
  const { method } = route
  const paths = pathVariants(route)
  for (const path of paths) {
    if (method === 'GET') {
      await send(method, path)
      // Hostile query strings on the first path (all parameters valid where it may be used).
      if (path === paths[0]) for (const query of queryVariants()) await send(method, `${path}${query}`)
    } else if (noBody(route)) {
      await send(method, path, { raw: '{}' })
      await send(method, path, { raw: '{' })
    } else {
      const sample = sampleBody(route)
      await send(method, path, sample && { raw: JSON.stringify(sample) })
    }
  }
  if (method !== 'GET' && !noBody(route)) {
    for (const body of bodyVariants(route)) await send(method, paths[0]!, body)
  }
  return { sent, failures }
}

it('knows every route of the app: a sample body for each one that reads a body', () => {
  expect(routes.length).toBeGreaterThan(50)
  const missing = routes.filter((route) => route.method !== 'GET' && !noBody(route) && !sampleBody(route))
  expect(missing).toEqual([])
})

it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
  '%s answers malformed input without a 5xx, in the one error shape',
  async (_, route) => {
    const { sent, failures } = await fuzz(route)
    expect(sent).toBeGreaterThan(0)
    expect(failures).toEqual([])
  },
  120_000,
)
