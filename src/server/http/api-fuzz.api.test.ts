import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Conversation, Message, MessageAttachment } from '../../domain/conversations.ts'
import { isErrorBody } from '../../domain/errors.ts'
import type { PromptDetail } from '../../domain/prompts.ts'
import type { TeamInvitation } from '../../domain/teams.ts'
import { DEFAULT_PASSWORD, TestClient } from '../testing/client.ts'
import { addMember, createTeamAs, invitationLinkFor, inviteAs } from '../testing/teams.ts'
import { createTestApp } from '../testing/test-app.ts'

/**
 * Malformed input for every route of the app: bad path parameters, broken and wrongly typed bodies
 * (each field of a valid body replaced in turn), hostile query strings. Whatever arrives, the
 * answer is never a 5xx, and every error has the one error shape. The routes come from the Hono
 * app itself, so a new route without a sample body below fails the first test.
 */
const testApp = await createTestApp()
afterAll(() => testApp.close())

type Route = { method: string; path: string }
const routes: Route[] = [
  ...new Map(
    testApp.app.routes
      .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/'))
      .map((route) => [`${route.method} ${route.path}`, { method: route.method, path: route.path }]),
  ).values(),
]

/** Routes whose success changes the fixtures whatever the body: only tried with bad parameters. */
const isBodylessAction = (route: Route) =>
  route.method === 'DELETE' || /\/(leave|accept|resend|retry|revert)$/.test(route.path)

// Destructive routes last, better-auth's (one of which signs out) at the very end.
const rank = (route: Route) => (route.path.startsWith('/api/auth/') ? 2 : isBodylessAction(route) ? 1 : 0)
routes.sort((a, b) => rank(a) - rank(b))

const NEW_PASSWORD = 'a long enough new passphrase'

interface Fixtures {
  admin: TestClient
  adminEmail: string
  teamId: string
  memberId: string
  invitationId: string
  token: string
  promptId: string
  versionId: string
  conversationId: string
  messageId: string
  attachmentId: string
  mailId: string
  apiKeyId: string
  labelEventId: string
  /** Basic auth with a read-write key, so the prompt API's routes get past authentication. */
  basicAuth: string
}

let fx: Fixtures
beforeAll(async () => {
  const admin = new TestClient(testApp)
  const { email: adminEmail } = await admin.signUp() // the first account: a global admin
  const team = await createTeamAs(admin, 'Fuzz')
  const member = new TestClient(testApp)
  const { id: memberId } = await member.signUp()
  await addMember(testApp, admin, team.id, member)
  const invitation: TeamInvitation = await inviteAs(admin, team.id, 'fuzz-pending@example.com')
  const { token } = await invitationLinkFor(testApp, 'fuzz-pending@example.com')
  const prompt = await admin.post<PromptDetail>('/api/v1/prompts', {
    title: 'Fuzzed',
    body: 'Body',
    visibility: 'team',
    teamId: team.id,
  })
  const promptId = prompt.body.id
  const versionId = prompt.body.currentVersionId!
  const conversation = await admin.post<Conversation>('/api/v1/conversations', {
    title: 'Fuzzed',
    teamId: team.id,
  })
  const conversationId = conversation.body.id
  const message = await admin.post<Message>(`/api/v1/conversations/${conversationId}/messages`, {
    content: { text: 'Hello' },
  })
  const messageId = message.body.id
  const attachment = await admin.post<MessageAttachment>(`/api/v1/messages/${messageId}/attachments`, {
    promptId,
  })
  const outbox = await admin.get<{ items: { id: string }[] }>('/api/v1/mail-outbox')
  const apiKey = await admin.post<{ id: string; publicKey: string; secretKey: string }>('/api/v1/api-keys', {
    name: 'Fuzz',
    scope: 'read_write',
  })
  const labelEvents = await admin.get<{ items: { id: string }[] }>(
    `/api/v1/prompts/${promptId}/label-history`,
  )
  fx = {
    admin,
    adminEmail,
    teamId: team.id,
    memberId,
    invitationId: invitation.id,
    token,
    promptId,
    versionId,
    conversationId,
    messageId,
    attachmentId: attachment.body.id,
    mailId: outbox.body.items[0]!.id,
    apiKeyId: apiKey.body.id,
    labelEventId: labelEvents.body.items[0]!.id,
    basicAuth: `Basic ${Buffer.from(`${apiKey.body.publicKey}:${apiKey.body.secretKey}`).toString('base64')}`,
  }
})

/** A valid body for every route that reads one (mutated field by field below). */
function sampleBody(route: Route): Record<string, unknown> | undefined {
  const samples: Record<string, () => Record<string, unknown>> = {
    'POST /api/v1/auth/admin/set-password': () => ({
      email: 'nobody@example.com',
      newPassword: NEW_PASSWORD,
    }),
    'POST /api/v1/auth/code/send': () => ({ email: 'fuzz-code@example.com' }),
    'POST /api/v1/auth/code/verify': () => ({ email: 'fuzz-code@example.com', code: '123456' }),
    'POST /api/v1/auth/direct-reset': () => ({
      email: 'nobody@example.com',
      currentPassword: DEFAULT_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
    'POST /api/v1/auth/password-reset': () => ({ email: 'nobody@example.com', newTab: false }),
    'POST /api/v1/auth/recovery': () => ({ tokenHash: 'made-up-token' }),
    'POST /api/v1/auth/recovery/password': () => ({ password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
    'POST /api/v1/auth/sign-in': () => ({ email: fx.adminEmail, password: DEFAULT_PASSWORD }),
    'POST /api/v1/auth/sign-up': () => ({
      email: 'fuzz-sign-up@example.com',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      acceptTerms: true,
    }),
    'POST /api/v1/conversations': () => ({
      title: 'New',
      teamId: fx.teamId,
      firstMessage: 'Hi',
      tags: ['a'],
    }),
    'PATCH /api/v1/conversations/:id': () => ({ title: 'Renamed', tags: ['a', 'b'] }),
    'POST /api/v1/conversations/:id/messages': () => ({
      role: 'assistant',
      content: { text: 'Reply' },
      model: 'gpt',
      tokenCount: 3,
      attachments: [{ promptId: fx.promptId, promptVersionId: fx.versionId }],
    }),
    'PATCH /api/v1/messages/:id': () => ({ content: { text: 'Edited' }, role: 'user' }),
    'POST /api/v1/messages/:id/attachments': () => ({
      promptId: fx.promptId,
      promptVersionId: fx.versionId,
      notes: 'Why',
    }),
    'POST /api/v1/mail-outbox/test': () => ({ to: 'fuzz-mail@example.com' }),
    'PATCH /api/v1/profile': () => ({
      displayName: 'Fuzz',
      locale: 'en',
      timezone: 'UTC',
      theme: 'dark',
      notifications: { mentions: { in_app: true, email: false }, invites: { in_app: false, email: true } },
    }),
    'POST /api/v1/prompts': () => ({
      title: 'New',
      description: 'About',
      body: 'Body',
      tags: ['a'],
      visibility: 'team',
      teamId: fx.teamId,
    }),
    'PATCH /api/v1/prompts/:id': () => ({
      title: 'Edited',
      description: 'About',
      body: 'Body',
      changelog: 'Why',
      tags: ['a'],
      visibility: 'team',
      teamId: fx.teamId,
      baseVersionId: fx.versionId,
    }),
    'PUT /api/v1/prompts/:id/current-version': () => ({ versionId: fx.versionId }),
    'POST /api/v1/teams': () => ({ name: 'Another' }),
    'PATCH /api/v1/teams/:teamId': () => ({ name: 'Renamed' }),
    'PATCH /api/v1/teams/:teamId/members/:userId': () => ({ role: 'member' }),
    'POST /api/v1/teams/:teamId/invitations': () => ({ email: 'fuzz-invitee@example.com', role: 'member' }),
    'POST /api/v1/api-keys': () => ({ name: 'Key', scope: 'read', teamId: fx.teamId }),
    'PUT /api/v1/prompts/:id/labels': () => ({ label: 'staging', versionId: fx.versionId }),
    'PUT /api/v1/teams/:teamId/protected-labels': () => ({ labels: ['staging'] }),
    'POST /api/public/v2/prompts': () => ({ name: 'fuzz', prompt: 'x', labels: ['a'], tags: ['t'] }),
    'POST /api/public/prompts': () => ({ name: 'fuzz', prompt: 'x', isActive: true }),
    'PATCH /api/public/v2/prompts/:name/versions/:version': () => ({ newLabels: ['a'] }),
    'POST /api/auth/*': () => ({ provider: 'google', callbackURL: '/auth/callback', disableRedirect: true }),
  }
  return samples[`${route.method} ${route.path}`]?.()
}

/** Writes without a body: their handlers never read one. */
const noBody = (route: Route) => isBodylessAction(route) || route.method === 'GET'

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
  for (const path of [...leafPaths(sample), ...Object.keys(sample).map((key) => [key])]) {
    for (const value of hostileValues)
      variants.push({ raw: JSON.stringify(withValueAt(sample, path, value)) })
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

function validParam(route: Route, name: string): string {
  if (name === 'id') {
    if (route.path.startsWith('/api/v1/prompts')) return fx.promptId
    if (route.path.startsWith('/api/v1/conversations')) return fx.conversationId
    if (route.path.startsWith('/api/v1/messages')) return fx.messageId
    if (route.path.startsWith('/api/v1/mail-outbox')) return fx.mailId
    if (route.path.startsWith('/api/v1/api-keys')) return fx.apiKeyId
  }
  const byName: Record<string, string> = {
    teamId: fx.teamId,
    userId: fx.memberId,
    invitationId: fx.invitationId,
    token: fx.token,
    versionId: fx.versionId,
    attachmentId: fx.attachmentId,
    file: 'init.js',
    label: 'staging',
    eventId: fx.labelEventId,
    name: 'Fuzzed',
    version: '1',
  }
  const value = byName[name]
  if (!value) throw new Error(`no valid value for :${name} in ${route.path}`)
  return value
}

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
  const queries = queryNames.flatMap((name) => badQueryValues.map((value) => `?${name}=${value}`))
  queries.push(`?tags=${Array.from({ length: 300 }, (_, i) => `t${i}`).join('&tags=')}`)
  queries.push('?scope=team&scope=owner&limit=1&limit=2')
  return queries
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

function describeFailure(status: number, method: string, path: string, body: unknown, sent?: string) {
  return `${status} ${method} ${path.slice(0, 120)} ${sent?.slice(0, 80) ?? ''} -> ${JSON.stringify(body).slice(0, 160)}`
}

async function fuzz(route: Route): Promise<{ sent: number; failures: string[] }> {
  const failures: string[] = []
  let sent = 0
  const send = async (method: string, path: string, body?: { raw: string; contentType?: string }) => {
    // A copy per request: a sign-in or sign-up that succeeds must not change who the next one is.
    const client = fx.admin.copy()
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
