import { hash, randomBytes } from 'node:crypto'
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { createApiKeyBody } from '../../../domain/api/api-keys.ts'
import {
  API_KEY_RATE_LIMIT,
  API_KEY_RATE_WINDOW_SECONDS,
  API_KEYS_PER_SPACE,
  type ApiKey,
  type ApiKeyScope,
  type CreatedApiKey,
  PUBLIC_KEY_PREFIX,
  SECRET_KEY_PREFIX,
  secretHintOf,
} from '../../../domain/api-keys.ts'
import type { Actor } from '../../../domain/auth.ts'
import type { Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Space } from '../../../domain/spaces.ts'
import { mailAccessCreated } from '../../auth/access-notices.ts'
import { type LoadTicket, runtimeCacheOf, spaceKeyOf } from '../../cache/runtime-cache.ts'
import { recordAudit } from '../../core/audit.ts'
import { type PlanGate, type SubjectRow, subjectRowColumns } from '../../core/plan-gate.ts'
import type { ApiKeyPrincipal } from '../../core/principal.ts'
import { authorizeTeam } from '../../core/team-access.ts'
import type { Db, Tx } from '../../db/client.ts'
import { handWrittenOnce } from '../../db/prepared.ts'
import { queryRows } from '../../db/rows.ts'
import { apiKeys, users } from '../../db/schema/index.ts'
import { assertApiAccess } from './api-access.ts'

/** The stored form of a secret: SHA-256, hex. Secrets are 32 random bytes, so no salt or stretching. */
export function hashSecret(secret: string): string {
  return hash('sha256', secret, 'hex')
}

const randomKey = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`

/** The space a caller names: their own (no team), or a team they administer. */
async function spaceFor(db: Db | Tx, actor: Actor, teamId: string | null): Promise<Space> {
  if (!teamId) return { kind: 'personal', userId: actor.id }
  await authorizeTeam(db, actor, teamId, 'manage_team')
  return { kind: 'team', teamId }
}

const ofSpace = (space: Space) =>
  space.kind === 'personal' ? eq(apiKeys.ownerUserId, space.userId) : eq(apiKeys.teamId, space.teamId)

const listColumns = {
  id: apiKeys.id,
  name: apiKeys.name,
  publicKey: apiKeys.publicKey,
  secretHint: apiKeys.secretHint,
  scope: apiKeys.scope,
  teamId: apiKeys.teamId,
  createdByUserId: apiKeys.createdByUserId,
  createdByEmail: users.email,
  createdAt: apiKeys.createdAt,
  lastUsedAt: apiKeys.lastUsedAt,
}

type KeyRow = { createdAt: Date; lastUsedAt: Date | null; createdByEmail: string | null } & Omit<
  ApiKey,
  'createdAt' | 'lastUsedAt' | 'createdByEmail'
>

const toApiKey = (row: KeyRow): ApiKey => ({
  ...row,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
})

export async function listApiKeys(db: Db, actor: Actor, teamId: string | null): Promise<Page<ApiKey>> {
  const space = await spaceFor(db, actor, teamId)
  const rows = await db
    .select(listColumns)
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(ofSpace(space), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
  return { items: rows.map(toApiKey), nextCursor: null }
}

/** Creates a key pair; only its hash is stored, the secret is in this answer and nowhere else. */
export async function createApiKey(
  db: Db,
  plans: PlanGate,
  actor: Actor,
  input: z.output<typeof createApiKeyBody>,
  appUrl: string,
): Promise<CreatedApiKey> {
  const secretKey = randomKey(SECRET_KEY_PREFIX)
  const id = await db.transaction(async (tx) => {
    const space = await spaceFor(tx, actor, input.teamId)
    await assertApiAccess(plans, tx, space, { lock: tx })
    // Creates in one space take turns (the advisory lock), so the count below stays true.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`api-keys:${space.kind}:${input.teamId ?? actor.id}`}))`,
    )
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(ofSpace(space), isNull(apiKeys.revokedAt)))
    if ((live?.n ?? 0) >= API_KEYS_PER_SPACE) {
      throw new AppError('conflict', 'apiKeys.tooMany', { params: { max: API_KEYS_PER_SPACE } })
    }
    const [row] = await tx
      .insert(apiKeys)
      .values({
        ownerUserId: space.kind === 'personal' ? space.userId : null,
        teamId: space.kind === 'team' ? space.teamId : null,
        name: input.name,
        publicKey: randomKey(PUBLIC_KEY_PREFIX),
        secretHash: hashSecret(secretKey),
        secretHint: secretHintOf(secretKey),
        scope: input.scope,
        createdByUserId: actor.id,
      })
      .returning({ id: apiKeys.id, publicKey: apiKeys.publicKey })
    await recordAudit(tx, actor, {
      action: 'api_key.created',
      objectType: 'api_key',
      objectId: row!.id,
      teamId: space.kind === 'team' ? space.teamId : null,
      after: { name: input.name, scope: input.scope, publicKey: row!.publicKey },
    })
    await mailAccessCreated(tx, appUrl, {
      kind: 'api_key',
      label: input.name,
      teamId: space.kind === 'team' ? space.teamId : null,
      actor,
    })
    return row!.id
  })
  const [row] = await db
    .select(listColumns)
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(eq(apiKeys.id, id))
  return { ...toApiKey(row!), secretKey }
}

/** Revokes a key at once: the next request it signs is refused. */
export async function revokeApiKey(db: Db, actor: Actor, keyId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [key] = await tx
      .select({
        ownerUserId: apiKeys.ownerUserId,
        teamId: apiKeys.teamId,
        name: apiKeys.name,
        publicKey: apiKeys.publicKey,
        scope: apiKeys.scope,
      })
      .from(apiKeys)
      .where(and(eq(apiKeys.id, keyId), isNull(apiKeys.revokedAt)))
      .for('update')
    const notFound = () => new AppError('not_found', 'apiKeys.notFound')
    if (!key) throw notFound()
    if (key.teamId) {
      await authorizeTeam(tx, actor, key.teamId, 'manage_team').catch((error: unknown) => {
        throw error instanceof AppError && error.code === 'not_found' ? notFound() : error
      })
    } else if (key.ownerUserId !== actor.id) {
      throw notFound()
    }
    await tx.update(apiKeys).set({ revokedAt: sql`now()` }).where(eq(apiKeys.id, keyId))
    await recordAudit(tx, actor, {
      action: 'api_key.revoked',
      objectType: 'api_key',
      objectId: keyId,
      teamId: key.teamId,
      before: { name: key.name, scope: key.scope, publicKey: key.publicKey },
    })
  })
}

/** An API key's row as `keyRowSelect` reads it (its plan subject's columns prefixed `subject_`). */
export interface StoredKeyRow extends Record<string, unknown> {
  key_id: string
  key_owner_user_id: string | null
  key_team_id: string | null
  key_public_key: string
  key_scope: ApiKeyScope
  key_created_by_user_id: string | null
  /** The window's count as stored, 0 when its window has run out. */
  key_window_count: number
  key_reset_at: number | string
  key_now: number | string
  subject_plan: SubjectRow['plan']
  subject_created_at: SubjectRow['created_at']
}

const rateWindow = sql.raw(`interval '${API_KEY_RATE_WINDOW_SECONDS} seconds'`)

/**
 * The select of a key that is not revoked, by the hash of its secret (`sql.placeholder('secretHash')`),
 * with its rate window and its space's plan: a key's whole check is one read. Its columns are
 * prefixed so that a statement can join it with other rows (the Langfuse fetch does).
 */
export const keyRowSelect = sql`SELECT id AS key_id, owner_user_id AS key_owner_user_id, team_id AS key_team_id,
    public_key AS key_public_key, scope AS key_scope, created_by_user_id AS key_created_by_user_id,
    CASE WHEN window_started_at <= now() - ${rateWindow} THEN 0 ELSE window_count END AS key_window_count,
    extract(epoch FROM CASE WHEN window_started_at <= now() - ${rateWindow} THEN now() ELSE window_started_at END + ${rateWindow})::float8 AS key_reset_at,
    extract(epoch FROM now())::float8 AS key_now,
    ${subjectRowColumns(sql`api_keys.team_id`, sql`api_keys.owner_user_id`, 'subject_')}
  FROM api_keys WHERE secret_hash = ${sql.placeholder('secretHash')} AND revoked_at IS NULL`

/** The row as one JSON column, as the Langfuse fetch reads it too: cheaper for the driver than a dozen. */
const keyRowStatement = handWrittenOnce<{ key: StoredKeyRow }>(
  sql`SELECT to_json(k) AS key FROM (${keyRowSelect}) k`,
  'promptfolio_api_key',
)

/** How often a process writes a key's counted requests (and last use) to its row. */
const FLUSH_INTERVAL_MS = 1000

interface Usage {
  /** Requests counted here and not yet written. */
  pending: number
  lastFlush: number
  /** The key's window as last read from its row (the requests written, by every process), epoch seconds. */
  window: { count: number; resetAt: number }
}

/**
 * Requests per key are counted in the key's row, written behind: the first request a process sees
 * of a key is written at once (so `last_used_at` is right from the start), later ones at most once
 * a second per key and not awaited. Each write reads the window back, with what other processes
 * wrote: a key kept by the runtime cache is checked without reading its row, so that read keeps
 * its count in step. With several processes a window may admit up to a second's worth of requests
 * more than its limit.
 */
const usageByDatabase = new WeakMap<object, Map<string, Usage>>()

const rateWindowAfterWrite = sql.raw(`interval '${API_KEY_RATE_WINDOW_SECONDS} seconds'`)

async function flushUsage(db: Db, keyId: string, count: number): Promise<Usage['window'] | undefined> {
  const window = rateWindowAfterWrite
  const [row] = await queryRows<{ count: number; reset_at: number | string }>(
    db,
    sql`UPDATE api_keys SET
      last_used_at = now(),
      window_count = CASE WHEN window_started_at <= now() - ${window} THEN ${count} ELSE window_count + ${count} END,
      window_started_at = CASE WHEN window_started_at <= now() - ${window} THEN now() ELSE window_started_at END
    WHERE id = ${keyId}
    RETURNING window_count AS count, extract(epoch FROM window_started_at + ${window})::float8 AS reset_at`,
  )
  return row && { count: Number(row.count), resetAt: Number(row.reset_at) }
}

/**
 * Whether the key's window, as this process counts it, has no request left for one more (nothing
 * is counted): `principalOfRow` would refuse the next one. As `countRequest` counts it: a window
 * that ran out starts again from the requests counted here and not written yet, which may be more
 * than its limit.
 */
function windowSpent(db: Db, keyId: string, limit: number): boolean {
  const usage = usageByDatabase.get(db)?.get(keyId)
  if (!usage) return false
  const written = Date.now() / 1000 >= usage.window.resetAt ? 0 : usage.window.count
  return written + usage.pending >= limit
}

const rateLimitOf = (multiplier: number) => Math.round(API_KEY_RATE_LIMIT * multiplier)

/**
 * Counts a request of the key in its window; answers the requests the window has seen with this
 * one and when it ends (epoch seconds). `stored`: the window as the key's row was just read (none
 * when the key came from the runtime cache).
 */
async function countRequest(
  db: Db,
  keyId: string,
  stored: Usage['window'] | undefined,
): Promise<{ used: number; resetAt: number }> {
  let usages = usageByDatabase.get(db)
  if (!usages) {
    usages = new Map()
    usageByDatabase.set(db, usages)
  }
  const usage = usages.get(keyId)
  const now = Date.now()
  if (!usage) {
    const window = stored ?? { count: 0, resetAt: now / 1000 + API_KEY_RATE_WINDOW_SECONDS }
    const first: Usage = {
      pending: 0,
      lastFlush: now,
      window: { count: window.count + 1, resetAt: window.resetAt },
    }
    usages.set(keyId, first)
    first.window = (await flushUsage(db, keyId, 1)) ?? first.window
    return { used: first.window.count, resetAt: first.window.resetAt }
  }
  if (stored) usage.window = stored
  else if (now / 1000 >= usage.window.resetAt) {
    // The window ran out since the row was read: a new one starts, as the next write will find.
    usage.window = { count: 0, resetAt: now / 1000 + API_KEY_RATE_WINDOW_SECONDS }
  }
  usage.pending += 1
  const counted = { used: usage.window.count + usage.pending, resetAt: usage.window.resetAt }
  if (now - usage.lastFlush >= FLUSH_INTERVAL_MS) {
    const count = usage.pending
    usage.pending = 0
    usage.lastFlush = now
    // Counted as written until the write answers with the window's figure from every process.
    usage.window = { count: usage.window.count + count, resetAt: usage.window.resetAt }
    // Not awaited: a failed write loses a second of counting, never the request.
    flushUsage(db, keyId, count).then(
      (window) => {
        if (window) usage.window = window
      },
      () => {
        usage.pending += count
      },
    )
  }
  return counted
}

/**
 * A key's row as the runtime cache keeps it, by the hash of its secret: only once a request of it
 * passed `principalOfRow`, and so was counted here. A key kept but never counted by this process
 * would be counted twice past its window: the kept-fetch lane's first count reads the window back,
 * finds it used up by other processes and leaves the request to the route, which counts it again.
 */
export function keepKeyRow(
  db: Db,
  ticket: LoadTicket | undefined,
  secretHash: string,
  row: StoredKeyRow | undefined,
) {
  if (!ticket || !row?.key_id) return
  runtimeCacheOf(db)?.keepKey(
    ticket,
    secretHash,
    { keyId: row.key_id, space: spaceKeyOf(spaceOfKeyRow(row)) },
    row,
  )
}

/** The space a key's row speaks for. */
export function spaceOfKeyRow(row: StoredKeyRow): Space {
  return row.key_team_id
    ? { kind: 'team', teamId: row.key_team_id }
    : { kind: 'personal', userId: row.key_owner_user_id! }
}

/**
 * The principal of a kept key's row, as `principalOfRow` makes it, when the request passes at once:
 * the public key sent is the key's, the space's plan allows API access, and the key's window has a
 * request left. Only then is the request counted; otherwise null with nothing counted. For a caller
 * that answers only what it can answer at once (the kept-fetch lane) and leaves every other request
 * to the route, which counts it. A key is kept only once this process counted it (`keepKeyRow`),
 * so the window is checked and counted here on this process's figures alike, with no read between.
 */
export async function keptKeyPrincipal(
  db: Db,
  plans: PlanGate,
  row: StoredKeyRow,
  /** The row's `spaceOfKeyRow`, which the caller has made already to look its answer up. */
  space: Space,
  publicKey: string,
  multiplier: number,
): Promise<ApiKeyPrincipal | null> {
  if (row.key_public_key !== publicKey) return null
  try {
    await assertRowApiAccess(plans, db, space, row)
  } catch {
    return null
  }
  // Checked after the plan's await and counted right away: no other request takes the window's
  // last request in between.
  if (windowSpent(db, row.key_id, rateLimitOf(multiplier))) return null
  const principal = await countedPrincipal(db, row, space, multiplier, true)
  return principal.rateLimit.retryAfter === null ? principal : null
}

/**
 * Authenticates a secret (and, when given, its public key): from the runtime cache, else one read
 * of the key by its hash. A revoked key is refused at once: its revocation's notification drops
 * it from every process's cache when the revocation commits. Throws 401 for an unknown, revoked or
 * mismatched key; past the rate limit the answer's `rateLimit.retryAfter` says how long to wait
 * (the caller sets the headers and refuses the request).
 */
export async function authenticateApiKey(
  db: Db,
  plans: PlanGate,
  secret: string,
  publicKey: string | null,
  multiplier: number,
): Promise<ApiKeyPrincipal> {
  const secretHash = hashSecret(secret)
  const cache = runtimeCacheOf(db)
  const kept = cache?.key<StoredKeyRow>(secretHash)
  if (kept) return principalOfRow(db, plans, kept, publicKey, multiplier, true)
  const ticket = cache?.begin()
  try {
    const [row] = await keyRowStatement(db, { secretHash })
    const principal = await principalOfRow(db, plans, row?.key, publicKey, multiplier)
    keepKeyRow(db, ticket, secretHash, row?.key)
    return principal
  } finally {
    if (ticket) cache?.end(ticket)
  }
}

/**
 * The principal of a key's row (`keyRowSelect`; undefined when no key has the secret): refuses an
 * unknown, revoked or mismatched key with 401, counts the request in the key's window, and checks
 * the space's plan unless the window is used up.
 */
export async function principalOfRow(
  db: Db,
  plans: PlanGate,
  row: StoredKeyRow | undefined,
  publicKey: string | null,
  multiplier: number,
  /** The row came from the runtime cache: its window figures are old, the process's count holds. */
  kept = false,
): Promise<ApiKeyPrincipal> {
  if (!row?.key_id || (publicKey !== null && row.key_public_key !== publicKey)) {
    throw new AppError('not_authenticated', 'apiKeys.invalid')
  }
  const principal = await countedPrincipal(db, row, spaceOfKeyRow(row), multiplier, kept)
  if (principal.rateLimit.retryAfter === null) await assertRowApiAccess(plans, db, principal.space, row)
  return principal
}

/** Counts a request of the key in its window, and makes its principal with the window's figures. */
async function countedPrincipal(
  db: Db,
  row: StoredKeyRow,
  space: Space,
  multiplier: number,
  kept: boolean,
): Promise<ApiKeyPrincipal> {
  const { used, resetAt } = await countRequest(
    db,
    row.key_id,
    kept ? undefined : { count: Number(row.key_window_count), resetAt: Number(row.key_reset_at) },
  )
  const now = kept ? Date.now() / 1000 : Number(row.key_now)
  const limit = rateLimitOf(multiplier)
  return {
    keyId: row.key_id,
    publicKey: row.key_public_key,
    space,
    scope: row.key_scope,
    userId: row.key_team_id ? row.key_created_by_user_id : row.key_owner_user_id,
    rateLimit: {
      limit,
      remaining: Math.max(0, limit - used),
      resetAt: Math.ceil(resetAt),
      retryAfter: used > limit ? Math.max(1, Math.ceil(resetAt - now)) : null,
    },
  }
}

/** The space's plan allows API access, as the key's row read it (403 `plan_limit` otherwise). */
function assertRowApiAccess(plans: PlanGate, db: Db, space: Space, row: StoredKeyRow): Promise<void> {
  return assertApiAccess(plans, db, space, {
    row: { plan: row.subject_plan, created_at: row.subject_created_at },
  })
}
