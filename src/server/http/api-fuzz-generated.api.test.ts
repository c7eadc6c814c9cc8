import { sql } from 'drizzle-orm'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { operationGroups } from '../../domain/api/index.ts'
import { type Operation, operationsOf } from '../../domain/api/operation.ts'
import { isErrorBody } from '../../domain/errors.ts'
import { MAX_BODY_BYTES } from '../app.ts'
import { type ApiObjects, seedApiObjects, validParam } from '../testing/api-samples.ts'
import { TestClient } from '../testing/client.ts'
import { reportFigures } from '../testing/reliability-report.ts'
import { createTestApp } from '../testing/test-app.ts'
import { arbitraryFor, badCursors, edgeStrings } from '../testing/zod-arbitrary.ts'
import { type FuzzRequest, keptCounterexamples } from './api-fuzz-regressions.ts'

/**
 * Generated requests for every declared operation, from the same zod schemas the server validates
 * with (src/server/testing/zod-arbitrary.ts): path parameters that name a seeded object or nothing
 * (random uuids, malformed and hostile segments), queries with edge values, bad cursors and
 * duplicate keys, bodies near and past every limit, wrong types, unicode edge cases, huge and deeply
 * nested values, broken JSON. Sent by the owner of the seeded objects (also the global admin), so
 * the requests get past access checks into validation and the services.
 *
 * The Langfuse operations are sent with the owner's key pair (Basic auth) and answer Langfuse's
 * error shape instead of ours.
 *
 * For each answer: never a 5xx; every error in its operation's error shape; and a refused request (4xx)
 * leaves the database as it was (row counts and a checksum of the main tables).
 *
 * FUZZ_RUNS requests (1,000 by default, the short run in `npm test`; `npm run test:reliability`
 * sends 10,000), from FUZZ_SEED when set (else a fixed seed under CI, a new one locally). A
 * failing case is shrunk by fast-check and printed as a FuzzRequest: keep it in
 * api-fuzz-regressions.ts, where it runs on every test run.
 */
const runs = Number(process.env.FUZZ_RUNS ?? 1000)
// A new seed on each local run; a fixed one under CI, so that a submission's run is repeatable.
const seed = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : /^(true|1)$/i.test(process.env.CI ?? '')
    ? 20261124
    : Date.now() % 2 ** 31

const testApp = await createTestApp()
afterAll(() => testApp.close())

const operations = operationGroups.flatMap((group) => operationsOf(group))
const byId = new Map(operations.map((operation) => [operation.id, operation]))

let fx: ApiObjects
beforeAll(async () => {
  const owner = new TestClient(testApp)
  await owner.signUp() // the first account: a global admin
  fx = await seedApiObjects(testApp, owner, owner)
})

/** The seeded objects a generated uuid may name (`@promptId`). */
const idNames = [
  'teamId',
  'memberId',
  'invitationId',
  'promptId',
  'versionId',
  'conversationId',
  'messageId',
  'attachmentId',
  'mailId',
  'planRequestId',
  'apiKeyId',
  'labelEventId',
  'exportId',
  'webhookId',
  'webhookDeliveryId',
] as const

/** Operations whose success changes the fixtures whatever the body: never given a valid object. */
const destroys = (operation: Operation) =>
  operation.spec.method === 'DELETE' ||
  /\/(leave|accept|resend|retry|revert|rotate|redeliver|test)$/.test(operation.spec.path)

function encodeSegment(value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return '%ED%A0%80' // a lone surrogate, as its UTF-8 bytes
  }
}

const badSegments = [
  'x',
  '0',
  '-1',
  'null',
  '%00',
  'a%00b',
  '%E0%A4%A',
  '..%2F..%2Fetc%2Fpasswd',
  '%27%20OR%201%3D1--',
  '%20',
  'x'.repeat(3000),
  '00000000-0000-0000-0000-000000000000',
]

function paramArbitrary(operation: Operation): fc.Arbitrary<string | null> {
  const bad = fc.oneof(
    fc.uuid(),
    fc.constantFrom(...badSegments),
    fc.constantFrom(...edgeStrings).map(encodeSegment),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeSegment),
  )
  if (destroys(operation)) return bad
  return fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 2, arbitrary: bad })
}

const idOptions = { ids: idNames }

function queryArbitrary(operation: Operation): fc.Arbitrary<[string, string][]> {
  const schema = operation.spec.query
  const fields = schema ? Object.keys(schema.shape) : []
  const value = schema ? arbitraryFor(schema, idOptions) : fc.constant({})
  const extras = fc.array(
    fc.oneof(
      fc.constantFrom(...badCursors).map((cursor): [string, string] => ['cursor', cursor]),
      // A key repeated with another value.
      fields.length > 0
        ? fc.tuple(
            fc.constantFrom(...fields),
            fc.oneof(fc.string({ maxLength: 10 }), fc.constantFrom(...edgeStrings)),
          )
        : fc.constant<[string, string]>(['unknown', 'x']),
      fc.constant<[string, string]>(['limit', '99999999999999999999']),
    ),
    { maxLength: 3 },
  )
  return fc.tuple(value, extras).map(([query, more]) => {
    const pairs: [string, string][] = []
    if (typeof query === 'object' && query !== null && !Array.isArray(query)) {
      for (const [key, item] of Object.entries(query)) {
        if (item === undefined) continue
        for (const one of Array.isArray(item) ? item : [item]) {
          pairs.push([key, typeof one === 'string' ? one : (JSON.stringify(one) ?? '')])
        }
      }
    }
    return [...pairs, ...more]
  })
}

const rawBodies = [
  '{',
  '{"a":',
  'null',
  '"text"',
  '[]',
  '{"__proto__":{"polluted":true}}',
  `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
  `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`,
  JSON.stringify({ text: 'x'.repeat(MAX_BODY_BYTES) }),
  '\u0000',
]

function bodyArbitrary(operation: Operation): fc.Arbitrary<FuzzRequest['body']> {
  const { body } = operation.spec
  if (!body) return fc.constantFrom<FuzzRequest['body']>(undefined, { raw: '{}' }, { raw: '{' })
  return fc.oneof(
    { weight: 12, arbitrary: arbitraryFor(body, idOptions).map((json) => ({ json })) },
    { weight: 1, arbitrary: fc.constantFrom(...rawBodies).map((raw) => ({ raw })) },
    {
      weight: 1,
      arbitrary: arbitraryFor(body, idOptions).map((json) => ({
        raw: JSON.stringify(json) ?? '',
        contentType: 'text/plain',
      })),
    },
  )
}

/** One arbitrary per operation, built once. */
const requestArbitraries = operations.map((operation) => {
  const names = [...operation.spec.path.matchAll(/:(\w+)/g)].map((match) => match[1]!)
  return fc.record<FuzzRequest>({
    op: fc.constant(operation.id),
    params: fc.record(Object.fromEntries(names.map((name) => [name, paramArbitrary(operation)]))),
    query: operation.spec.method === 'GET' ? queryArbitrary(operation) : fc.constant([]),
    body: operation.spec.method === 'GET' ? fc.constant(undefined) : bodyArbitrary(operation),
  })
})
const requestArbitrary: fc.Arbitrary<FuzzRequest> = fc.oneof(...requestArbitraries)

/** `@promptId` → the seeded prompt's id, anywhere in a generated value. */
function withFixtures(value: unknown): unknown {
  if (typeof value === 'string' && value.startsWith('@') && value.slice(1) in fx) {
    return fx[value.slice(1) as keyof ApiObjects]
  }
  if (Array.isArray(value)) return value.map(withFixtures)
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, withFixtures(item)]))
  }
  return value
}

function urlOf(request: FuzzRequest): { method: string; url: string } {
  const operation = byId.get(request.op)
  if (!operation) throw new Error(`no operation ${request.op}`)
  const route = { path: `/api${operation.spec.path}` }
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => {
    const raw = request.params[name]
    return raw === null || raw === undefined ? validParam(route, name, fx) : raw
  })
  const query = request.query
    .map(([key, value]) => `${encodeSegment(key)}=${encodeSegment(String(withFixtures(value)))}`)
    .join('&')
  return { method: operation.spec.method, url: query ? `${path}?${query}` : path }
}

/** The main tables whose rows a refused request must leave alone (counters and sessions excepted). */
const checkedTables = [
  'users',
  'accounts',
  'profiles',
  'teams',
  'team_members',
  'invitations',
  'prompts',
  'prompt_versions',
  'prompt_labels',
  'prompt_label_events',
  'team_protected_labels',
  'conversations',
  'conversation_messages',
  'conversation_message_prompts',
  'api_keys',
  'webhook_endpoints',
  'webhook_deliveries',
  'plan_subjects',
  'plan_requests',
  'data_exports',
  'mail_outbox',
]
/** Rows a background job finishes after the answer (an export being built): counted, not hashed. */
const countedOnly = new Set(['data_exports'])

/**
 * Columns every request of a key writes, refused or not (its rate-limit window and last use: the
 * Langfuse operations are called with a key): left out of the hash.
 */
const usageColumns: Record<string, string[]> = {
  api_keys: ['last_used_at', 'window_started_at', 'window_count'],
}

/** A row's text for the hash, without its usage columns. */
const rowText = (table: string) =>
  usageColumns[table]
    ? `(to_jsonb(x) ${usageColumns[table].map((column) => `- '${column}'`).join(' ')})::text`
    : 'x::text'

/** Row count and a hash of every row of every checked table, in one query. */
async function snapshot(): Promise<string> {
  const parts = checkedTables.map(
    (table) =>
      `select '${table}' as t, count(*)::text as n, ${countedOnly.has(table) ? "''" : `coalesce(sum(hashtext(${rowText(table)})::bigint), 0)::text`} as h from "${table}" x`,
  )
  const result = (await testApp.database.db.execute(sql.raw(parts.join(' union all ')))) as unknown as {
    rows: { t: string; n: string; h: string }[]
  }
  return result.rows.map((row) => `${row.t}:${row.n}:${row.h}`).join(' ')
}

function changed(before: string, after: string): string {
  const old = new Map(before.split(' ').map((part) => [part.split(':')[0], part]))
  return after
    .split(' ')
    .filter((part) => old.get(part.split(':')[0]) !== part)
    .join(' ')
}

const figures = { requests: 0, serverErrors: 0, badShape: 0, refused: 0, refusedChanges: 0 }
let baseline = ''

/** Langfuse's error envelope: `{message, error}`, the error a name or a validation's issues. */
function isLangfuseErrorBody(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    typeof (body as { message?: unknown }).message === 'string' &&
    'error' in body
  )
}

/** Sends one request; the problems with its answer (empty when it is fine). */
async function check(request: FuzzRequest): Promise<string[]> {
  const { method, url } = urlOf(request)
  let rawBody: string | undefined
  let contentType: string | undefined
  if (request.body && 'json' in request.body) rawBody = JSON.stringify(withFixtures(request.body.json))
  else if (request.body) {
    rawBody = request.body.raw
    contentType = request.body.contentType
  }
  const { spec } = byId.get(request.op)!
  // A copy per request: a sign-in or sign-up that succeeds must not change who the next one is.
  const res = await fx.owner.copy().request(method, url, {
    rawBody,
    headers: {
      ...(contentType && { 'Content-Type': contentType }),
      // The owner's read-write key pair, so that the Langfuse operations get past authentication.
      ...(spec.access === 'key-pair' && { Authorization: fx.basicAuth }),
    },
  })
  figures.requests += 1
  const problems: string[] = []
  const said = `${res.status} ${JSON.stringify(res.body)?.slice(0, 200)}`
  if (res.status >= 500) {
    figures.serverErrors += 1
    problems.push(`5xx: ${said}`)
  }
  const inItsEnvelope = spec.errorEnvelope === 'langfuse' ? isLangfuseErrorBody : isErrorBody
  if (res.status >= 400 && !inItsEnvelope(res.body)) {
    figures.badShape += 1
    problems.push(`not the error shape: ${said}`)
  }
  const after = await snapshot()
  if (res.status >= 400) {
    figures.refused += 1
    if (after !== baseline) {
      figures.refusedChanges += 1
      problems.push(`refused, yet changed ${changed(baseline, after)}: ${said}`)
    }
  }
  baseline = after
  return problems
}

it.each(keptCounterexamples.map((kept) => [kept.why.slice(0, 60), kept] as const))(
  'kept counterexample: %s',
  async (_, kept) => {
    baseline = await snapshot()
    for (const request of kept.requests) expect(await check(request)).toEqual([])
  },
)

it(`${runs} generated requests: no 5xx, one error shape, refused requests change nothing`, async () => {
  baseline = await snapshot()
  const counted = { ...figures }
  try {
    await fc.assert(
      fc.asyncProperty(requestArbitrary, async (request) => {
        const problems = await check(request)
        if (problems.length > 0) throw new Error(problems.join('\n'))
      }),
      { numRuns: runs, seed, endOnFailure: false, verbose: 0 },
    )
  } finally {
    reportFigures('api-fuzz', {
      seed,
      requests: figures.requests - counted.requests,
      serverErrors: figures.serverErrors - counted.serverErrors,
      badShape: figures.badShape - counted.badShape,
      refused: figures.refused - counted.refused,
      refusedChanges: figures.refusedChanges - counted.refusedChanges,
    })
  }
}, 3_600_000)
