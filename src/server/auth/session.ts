import { createHmac, timingSafeEqual } from 'node:crypto'
import { eq, sql } from 'drizzle-orm'
import type { Context, MiddlewareHandler } from 'hono'
import { parse as parseCookies } from 'hono/utils/cookie'
import type { CurrentUser } from '../../domain/auth.ts'
import { SESSION_ABSOLUTE_SECONDS } from '../../domain/constants.ts'
import { runtimeCacheOf } from '../cache/runtime-cache.ts'
import type { Db } from '../db/client.ts'
import { mapRowsFlat } from '../db/prepared.ts'
import { sessions, users } from '../db/schema/index.ts'
import { headersForAuth } from '../http/client-address.ts'
import type { AppEnv } from '../http/env.ts'
import { type Auth, SESSION_LIFETIME_SECONDS, SESSION_REFRESH_AFTER_SECONDS } from './auth.ts'

interface SessionUser {
  id: string
  email: string
  name: string
  role?: string | null
  createdAt: Date
}

export function toCurrentUser(user: SessionUser): CurrentUser {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    globalRole: user.role === 'global_admin' ? 'global_admin' : 'user',
    createdAt: user.createdAt.toISOString(),
  }
}

/** Whether a session began longer ago than the absolute lifetime (however recently it was used). */
export function isPastAbsoluteLifetime(session: { createdAt: Date }, now = Date.now()): boolean {
  return now - session.createdAt.getTime() > SESSION_ABSOLUTE_SECONDS * 1000
}

/** Whether better-auth would push the session's expiry (epoch ms) out on this request (its `updateAge`). */
function isDueForRefresh(expiresAt: number, now: number): boolean {
  return expiresAt - SESSION_LIFETIME_SECONDS * 1000 + SESSION_REFRESH_AFTER_SECONDS * 1000 <= now
}

type SessionRead =
  | { user: CurrentUser; sessionId: string; signedInAt: Date }
  | { user: null; sessionId: null; signedInAt: null }
  | 'ask-better-auth'

/** No cookie at all: nothing for better-auth to read, extend or clear (an SDK, a probe, a 404). */
const anonymous = { user: null, sessionId: null, signedInAt: null } as const

/** What a session token was read as: kept in the runtime cache until its user or sessions change. */
interface KeptSession {
  user: CurrentUser
  sessionId: string
  expiresAt: number
  signedInAt: Date
}

/**
 * The common case, read without better-auth: a correctly signed session cookie (better-call's
 * format, `token.base64(HMAC-SHA256(token))`), alone, whose session is live, within the absolute
 * lifetime and not yet due for its idle extension. Every other case goes to better-auth, which owns
 * those rules and the cookies they set or clear. Measured by `npm run bench:prompts` (a third of
 * the server's CPU per request went to better-auth).
 *
 * The session and its user are one statement, read once and then kept in the runtime cache
 * (decision 0286) until a trigger says the user's row or one of their sessions changed: reading
 * them on every request was about a quarter of a signed-in read's server CPU (`npm run bench:ab`).
 * The time rules are checked on every request, against the kept expiry and sign-in time.
 */
function fastSessionReader(auth: Auth, db: Db) {
  const names = auth.$context.then(({ authCookies, secret }) => ({
    token: authCookies.sessionToken.name,
    // Cookies better-auth cleans up or treats specially: their presence sends the request its way.
    special: [authCookies.sessionData.name, authCookies.dontRememberToken.name],
    secret,
  }))
  const byToken = db
    .select({
      sessionId: sessions.id,
      expiresAt: sessions.expiresAt,
      sessionCreatedAt: sessions.createdAt,
      id: users.id,
      email: users.email,
      name: users.name,
      role: users.role,
      createdAt: users.createdAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.token, sql.placeholder('token')))
    .prepare('promptfolio_session_by_token')
  mapRowsFlat(byToken)
  const tokenOf = sessionTokens()
  // Taken from here once resolved: awaiting a settled promise still costs every request a microtask turn.
  let known: Awaited<typeof names> | undefined
  // A rejection is the requests' to see (through `await names`), not an unhandled one here.
  names.then(
    (resolved) => {
      known = resolved
    },
    () => {},
  )

  const read = async (token: string): Promise<KeptSession | undefined> => {
    const cache = runtimeCacheOf(db)
    const kept = cache?.session<KeptSession>(token)
    if (kept) return kept
    const ticket = cache?.begin()
    try {
      const [row] = await byToken.execute({ token })
      if (!row) return undefined
      const session: KeptSession = {
        // Frozen: every request of this session gets the same object.
        user: Object.freeze(toCurrentUser(row)),
        sessionId: row.sessionId,
        expiresAt: row.expiresAt.getTime(),
        signedInAt: row.sessionCreatedAt,
      }
      if (ticket) cache!.keepSession(ticket, token, row.id, session)
      return session
    } finally {
      if (ticket) cache!.end(ticket)
    }
  }

  return async (c: Context<AppEnv>): Promise<SessionRead> => {
    const header = c.req.header('cookie')
    if (header === undefined) return anonymous
    const token = tokenOf(header, known ?? (await names))
    if (token === null) return 'ask-better-auth'
    const session = await read(token)
    const now = Date.now()
    if (
      !session ||
      session.expiresAt <= now ||
      isDueForRefresh(session.expiresAt, now) ||
      isPastAbsoluteLifetime({ createdAt: session.signedInAt }, now)
    ) {
      return 'ask-better-auth'
    }
    return { user: session.user, sessionId: session.sessionId, signedInAt: session.signedInAt }
  }
}

/** How many Cookie headers a `sessionTokens` keeps; past that the oldest is dropped. */
const KNOWN_HEADERS_KEPT = 10_000
/** A longer Cookie header is read every time: 10,000 of these at most take about 10 MB. */
const KNOWN_HEADER_MAX_LENGTH = 1024

/**
 * The session token of a Cookie header that holds a correctly signed session cookie (better-call's
 * format, `token.base64(HMAC-SHA256(token))`) and none of the cookies better-auth treats specially;
 * null for any other. The answer depends only on the header and the secret, so a header found good
 * once is taken from memory on its next requests: a browser sends the same header every time, and
 * parsing it and checking the signature were about 5 µs of a request's
 * server CPU (`npm run bench:prompts`). Whether its session is live is read each time.
 */
function sessionTokens(): (
  header: string,
  names: { token: string; special: string[]; secret: string },
) => string | null {
  const tokens = new Map<string, string>()
  return (header, { token: cookieName, special, secret }) => {
    const kept = tokens.get(header)
    if (kept !== undefined) return kept
    // Hono's own cookie parser (what getCookie uses), once for all three names.
    const cookies = parseCookies(header)
    const signed = cookies[cookieName]
    if (!signed || special.some((name) => cookies[name] !== undefined)) return null
    const dot = signed.lastIndexOf('.')
    const token = signed.slice(0, dot)
    const signature = Buffer.from(signed.slice(dot + 1), 'base64')
    const expected = createHmac('sha256', secret).update(token).digest()
    if (dot < 1 || signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null
    if (header.length <= KNOWN_HEADER_MAX_LENGTH) {
      // The oldest goes first: one signed cookie with other cookies varied around it makes new
      // headers at will, which must not empty the whole map at once.
      if (tokens.size >= KNOWN_HEADERS_KEPT) tokens.delete(tokens.keys().next().value!)
      tokens.set(header, token)
    }
    return token
  }
}

/**
 * Resolves the session cookie to the signed-in user (or null). better-auth may extend the session
 * while reading it (the idle lifetime) or clear a cookie that names no session; those cookies are
 * passed on to the response unless the route set the same cookie. A session
 * past the absolute lifetime is ended here, since better-auth only knows the idle one.
 */
export function loadSession(auth: Auth, db: Db): MiddlewareHandler<AppEnv> {
  const readFast = fastSessionReader(auth, db)
  return async (c, next) => {
    const fast = await readFast(c)
    const reads = c.req.method === 'GET' || c.req.method === 'HEAD'
    if (fast !== 'ask-better-auth') {
      c.set('user', fast.user)
      c.set('sessionId', fast.sessionId)
      c.set('signedInAt', fast.signedInAt)
      if (reads) return next()
      await next()
      return heardOwnWrites(db)
    }
    let { headers, response } = await auth.api.getSession({
      headers: headersForAuth(c),
      returnHeaders: true,
    })
    if (response && isPastAbsoluteLifetime(response.session)) {
      const context = await auth.$context
      await context.internalAdapter.deleteSession(response.session.token)
      response = null
      headers = new Headers()
    }
    c.set('user', response ? toCurrentUser(response.user) : null)
    c.set('sessionId', response?.session.id ?? null)
    c.set('signedInAt', response?.session.createdAt ?? null)
    await next()
    // A route that signed someone in has set the session cookie itself; reading the stale one
    // (e.g. right after a reset) produced a deletion that, sent after it, would sign them out again.
    const setByRoute = new Set(c.res.headers.getSetCookie().map(cookieName))
    for (const cookie of headers.getSetCookie()) {
      if (!setByRoute.has(cookieName(cookie))) c.res.headers.append('Set-Cookie', cookie)
    }
    if (!reads) await heardOwnWrites(db)
  }
}

/**
 * Waits until this process has heard the notifications of what a request committed, so that its
 * next request never finds a session it ended or a user it changed still kept (decision 0286).
 * Our own transactions wait on their own (`attachRuntimeCache`); better-auth's writes, and single
 * statements outside a transaction, do not. Called once a request that may write is done.
 */
export async function heardOwnWrites(db: Db): Promise<void> {
  await runtimeCacheOf(db)?.afterCommit()
}

const cookieName = (setCookie: string) => setCookie.slice(0, setCookie.indexOf('='))
