import { and, count, desc, eq, or, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { createProviderBody } from '../../../domain/api/models.ts'
import type { AuditAction } from '../../../domain/audit.ts'
import type { Actor } from '../../../domain/auth.ts'
import type { Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import {
  DEFAULT_BASE_URLS,
  keyHintOf,
  type ModelProvider,
  PROVIDERS_PER_SPACE,
  type updateProviderInput,
} from '../../../domain/models.ts'
import type { Space } from '../../../domain/spaces.ts'
import { recordAudit } from '../../core/audit.ts'
import { authorizeTeam } from '../../core/team-access.ts'
import type { Db, Tx } from '../../db/client.ts'
import { teamsOf } from '../../db/queries.ts'
import { modelProviders } from '../../db/schema/index.ts'
import type { MailKey } from '../../mail/sealing.ts'
import { assertPublicBaseUrl } from './address-guard.ts'
import { type Connection, listModels } from './client.ts'
import { openApiKey, sealApiKey } from './key-sealing.ts'

export interface ModelDeps {
  db: Db
  /** The key that seals provider API keys (derived from AUTH_SECRET). */
  sealingKey: MailKey
  /** MODELS_ALLOW_PRIVATE=1: base URLs on private and loopback addresses (local models) are accepted. */
  allowPrivate: boolean
  /** Scales the run limits (RATE_LIMIT_MULTIPLIER). */
  rateLimitMultiplier: number
}

export type ProviderRow = typeof modelProviders.$inferSelect
type ProviderChange = 'created' | 'updated' | 'deleted'
const auditActionOf: Record<ProviderChange, AuditAction> = {
  created: 'model.provider.created',
  updated: 'model.provider.changed',
  deleted: 'model.provider.deleted',
}

export const providerNotFound = () => new AppError('not_found', 'models.providerNotFound')

/** Recorded in the change's transaction; the key never, only whether it was replaced. */
async function providerChanged(
  tx: Tx,
  actor: Actor,
  row: ProviderRow,
  change: ProviderChange,
  keyReplaced = false,
): Promise<void> {
  await recordAudit(tx, actor, {
    action: auditActionOf[change],
    objectType: 'model_provider',
    objectId: row.id,
    teamId: row.teamId,
    after: {
      change,
      name: row.name,
      kind: row.kind,
      baseUrl: row.baseUrl,
      ...(keyReplaced && { keyReplaced }),
    },
  })
}

/** The space a caller manages: their own (no team), or a team they administer. */
async function managedSpace(db: Db | Tx, actor: Actor, teamId: string | null): Promise<Space> {
  if (!teamId) return { kind: 'personal', userId: actor.id }
  await authorizeTeam(db, actor, teamId, 'manage_team')
  return { kind: 'team', teamId }
}

const ofSpace = (space: Space) =>
  space.kind === 'personal'
    ? eq(modelProviders.ownerUserId, space.userId)
    : eq(modelProviders.teamId, space.teamId)

/** The provider, if the actor manages its space (the owner; a team's admins); else 404 / 403. */
async function loadManagedProvider(
  db: Db | Tx,
  actor: Actor,
  id: string,
  lock = false,
): Promise<ProviderRow> {
  const query = db.select().from(modelProviders).where(eq(modelProviders.id, id))
  const [row] = await (lock ? query.for('update') : query)
  if (!row) throw providerNotFound()
  if (row.teamId) {
    await authorizeTeam(db, actor, row.teamId, 'manage_team').catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'not_found' ? providerNotFound() : error
    })
  } else if (row.ownerUserId !== actor.id) {
    throw providerNotFound()
  }
  return row
}

/**
 * Who may use a provider's key: its owner, or a member of its team (any role). A global admin from
 * outside the team is not a member. An API key (a personal one: /api/v1 takes no others) speaks
 * for its owner's personal space, as it does for prompts, so it reaches only their own providers.
 */
function usableBy(actor: Actor) {
  if (actor.apiKeyId) return eq(modelProviders.ownerUserId, actor.id)
  return or(eq(modelProviders.ownerUserId, actor.id), sql`${modelProviders.teamId} IN ${teamsOf(actor.id)}`)
}

export async function loadUsableProvider(db: Db, actor: Actor, id: string): Promise<ProviderRow> {
  const [row] = await db
    .select()
    .from(modelProviders)
    .where(and(eq(modelProviders.id, id), usableBy(actor)))
  if (!row)
    throw new AppError('validation', 'models.providerNotFound', {
      fields: { providerId: 'models.providerNotFound' },
    })
  return row
}

export function toProvider(row: ProviderRow): ModelProvider {
  return {
    id: row.id,
    teamId: row.teamId,
    kind: row.kind,
    name: row.name,
    baseUrl: row.baseUrl,
    keyHint: row.keyHint,
    models: row.models,
    defaultModel: row.defaultModel,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

export function connectionOf(deps: ModelDeps, row: ProviderRow): Connection {
  return {
    kind: row.kind,
    baseUrl: row.baseUrl,
    apiKey: openApiKey(deps.sealingKey, row.sealedKey),
    allowPrivate: deps.allowPrivate,
  }
}

export async function listProviders(
  db: Db,
  actor: Actor,
  teamId: string | null,
): Promise<Page<ModelProvider>> {
  const space = await managedSpace(db, actor, teamId)
  const rows = await db
    .select()
    .from(modelProviders)
    .where(ofSpace(space))
    .orderBy(desc(modelProviders.createdAt), desc(modelProviders.id))
  return { items: rows.map(toProvider), nextCursor: null }
}

/** Every provider the actor may run prompts with: their own, then their teams'. */
export async function listUsableProviders(db: Db, actor: Actor): Promise<Page<ModelProvider>> {
  const rows = await db
    .select()
    .from(modelProviders)
    .where(usableBy(actor))
    .orderBy(sql`${modelProviders.teamId} IS NOT NULL`, modelProviders.name, modelProviders.id)
  return { items: rows.map(toProvider), nextCursor: null }
}

export async function createProvider(
  deps: ModelDeps,
  actor: Actor,
  input: z.output<typeof createProviderBody>,
): Promise<ModelProvider> {
  const { db } = deps
  await managedSpace(db, actor, input.teamId)
  const baseUrl = input.baseUrl || DEFAULT_BASE_URLS[input.kind]
  await assertPublicBaseUrl(baseUrl, deps.allowPrivate)
  const row = await db.transaction(async (tx) => {
    const space = await managedSpace(tx, actor, input.teamId)
    // Creates in one space take turns, so the count below stays true.
    await tx.execute(
      sql`SELECT pg_advisory_xact_lock(hashtext(${`model-providers:${input.teamId ?? actor.id}`}))`,
    )
    const [existing] = await tx.select({ n: count() }).from(modelProviders).where(ofSpace(space))
    if ((existing?.n ?? 0) >= PROVIDERS_PER_SPACE) {
      throw new AppError('conflict', 'models.tooManyProviders', { params: { max: PROVIDERS_PER_SPACE } })
    }
    const [created] = await tx
      .insert(modelProviders)
      .values({
        ownerUserId: space.kind === 'personal' ? space.userId : null,
        teamId: space.kind === 'team' ? space.teamId : null,
        kind: input.kind,
        name: input.name,
        baseUrl,
        sealedKey: sealApiKey(deps.sealingKey, input.apiKey),
        keyHint: keyHintOf(input.apiKey),
        models: input.models,
        defaultModel: input.defaultModel || (input.models[0] ?? ''),
        createdByUserId: actor.id,
      })
      .returning()
    await providerChanged(tx, actor, created!, 'created')
    return created!
  })
  return toProvider(row)
}

export async function updateProvider(
  deps: ModelDeps,
  actor: Actor,
  id: string,
  input: z.output<typeof updateProviderInput>,
): Promise<ModelProvider> {
  const { db } = deps
  const current = await loadManagedProvider(db, actor, id)
  const baseUrl = input.baseUrl === undefined ? undefined : input.baseUrl || DEFAULT_BASE_URLS[current.kind]
  if (baseUrl !== undefined) await assertPublicBaseUrl(baseUrl, deps.allowPrivate)
  const row = await db.transaction(async (tx) => {
    const locked = await loadManagedProvider(tx, actor, id, true)
    const models = input.models ?? locked.models
    const defaultModel = input.defaultModel ?? locked.defaultModel
    if (defaultModel && models.length > 0 && !models.includes(defaultModel)) {
      throw new AppError('validation', 'models.defaultNotListed', {
        fields: { defaultModel: 'models.defaultNotListed' },
      })
    }
    const [updated] = await tx
      .update(modelProviders)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(baseUrl !== undefined && { baseUrl }),
        ...(input.apiKey !== undefined && {
          sealedKey: sealApiKey(deps.sealingKey, input.apiKey),
          keyHint: keyHintOf(input.apiKey),
        }),
        models,
        defaultModel,
        updatedAt: sql`now()`,
      })
      .where(eq(modelProviders.id, id))
      .returning()
    await providerChanged(tx, actor, updated!, 'updated', input.apiKey !== undefined)
    return updated!
  })
  return toProvider(row)
}

export async function deleteProvider(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await loadManagedProvider(tx, actor, id, true)
    await tx.delete(modelProviders).where(eq(modelProviders.id, id))
    await providerChanged(tx, actor, row, 'deleted')
  })
}

/** Seconds a model list may take. */
const LIST_TIMEOUT_MS = 15_000

/** The models the provider's API lists (for the form to pick from; nothing is stored). */
export async function fetchProviderModels(
  deps: ModelDeps,
  actor: Actor,
  id: string,
): Promise<{ models: string[] }> {
  const row = await loadManagedProvider(deps.db, actor, id)
  await assertPublicBaseUrl(row.baseUrl, deps.allowPrivate)
  return { models: await listModels(connectionOf(deps, row), LIST_TIMEOUT_MS) }
}
