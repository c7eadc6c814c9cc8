import { hash } from 'node:crypto'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { scopeAllows } from '../../../domain/api-keys.ts'
import { AppError } from '../../../domain/errors.ts'
import type { LangfuseCreateInput, langfuseListQuery } from '../../../domain/langfuse.ts'
import {
  type ChatEntry,
  LATEST_LABEL,
  PRODUCTION_LABEL,
  type PromptType,
  parsePromptBody,
  serializePromptBody,
} from '../../../domain/prompt-names.ts'
import { parseReferences, type ResolutionGraph } from '../../../domain/prompt-references.ts'
import type { Variables } from '../../../domain/prompt-variables.ts'
import { type Space, spaceId } from '../../../domain/spaces.ts'
import {
  type CachedPrompt,
  type LoadTicket,
  runtimeCacheOf,
  type SpaceKey,
  spaceKeyOf,
} from '../../cache/runtime-cache.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import { type ApiKeyPrincipal, keyPrincipal } from '../../core/principal.ts'
import type { Db, Tx } from '../../db/client.ts'
import { handWrittenOnce } from '../../db/prepared.ts'
import type { Param } from '../../db/queries.ts'
import { atLeast } from '../../db/read-routing.ts'
import { queryRows } from '../../db/rows.ts'
import { prompts, promptVersions } from '../../db/schema/index.ts'
import {
  hashSecret,
  keepKeyRow,
  keptKeyPrincipal,
  keyRowSelect,
  principalOfRow,
  type StoredKeyRow,
  spaceOfKeyRow,
} from '../api-keys/index.ts'
import { inSpace, mapPromptDbError, promptColumns, resolveInSpace, writes } from '../prompts/index.ts'

/** One prompt version as Langfuse's API answers it. */
export interface LangfusePrompt {
  id: string
  createdAt: string
  updatedAt: string
  projectId: string
  createdBy: string
  prompt: string | ChatEntry[]
  name: string
  version: number
  type: PromptType
  isActive: boolean
  config: Record<string, unknown>
  tags: string[]
  labels: string[]
  commitMessage: string | null
  /** Langfuse's graph of the included prompts (null without references or when fetched raw). */
  resolutionGraph?: ResolutionGraph | null
}

interface VersionRow extends Record<string, unknown> {
  id: string
  created_at: Date | string
  name: string
  type: PromptType
  body: string
  version_number: number
  config: Record<string, unknown> | string
  tags: string[]
  changelog: string | null
  created_by_user_id: string | null
  created_by_api_key_id: string | null
  /** All its labels, `production` and `latest` included, in Langfuse's order. */
  labels: string[] | null
}

/** The space as raw SQL on `prompts p` (the same rule as `inSpace`, for the hand-written statements). */
function spaceSql(space: Space): SQL {
  return space.kind === 'personal'
    ? sql`p.owner_user_id = ${space.userId} AND p.visibility = 'private'`
    : sql`p.team_id = ${space.teamId} AND p.visibility = 'team'`
}

const isLatest = sql`NOT EXISTS (SELECT 1 FROM prompt_versions h WHERE h.prompt_id = p.id AND h.version_number > v.version_number)`

/** When a label was last placed: its newest move in the label history (the index's first hit). */
const placedAt = (label: SQL) => sql`(SELECT e.created_at FROM prompt_label_events e
  WHERE e.prompt_id = p.id AND e.label = ${label} ORDER BY e.created_at DESC LIMIT 1)`

/**
 * A version's labels in Langfuse's order: as they were placed on it (so a create's labels keep the
 * order sent), with `latest` right after the labels placed when the version was made, i.e. by the
 * same transaction (`xmin`), before labels added later. A label the history does not know sorts
 * first, by name.
 */
const orderedLabels = sql`ARRAY(SELECT x.label FROM (
    SELECT l.label, ${placedAt(sql`l.label`)} AS placed FROM prompt_labels l WHERE l.version_id = v.id
    UNION ALL SELECT ${PRODUCTION_LABEL}, ${placedAt(sql`${PRODUCTION_LABEL}`)} WHERE p.current_version_id = v.id
    UNION ALL SELECT ${LATEST_LABEL}, coalesce((SELECT max(e.created_at) FROM prompt_label_events e
        WHERE e.prompt_id = p.id AND e.created_at >= v.created_at AND e.xmin = v.xmin), v.created_at)
      WHERE ${isLatest}
  ) x ORDER BY x.placed NULLS FIRST, x.label = ${LATEST_LABEL}, x.label)`

const versionColumns = sql`v.id, v.created_at, p.name, p.type, v.body, v.version_number, v.config, p.tags,
  v.changelog, v.created_by_user_id, v.created_by_api_key_id, ${orderedLabels} AS labels`

/** Which version a label names: production is the current one, latest the highest, others stored. */
function labelSelector(label: Param<string>): SQL {
  if (label === PRODUCTION_LABEL) return sql`v.id = p.current_version_id`
  if (label === LATEST_LABEL) {
    return sql`v.version_number = (SELECT max(m.version_number) FROM prompt_versions m WHERE m.prompt_id = p.id)`
  }
  return sql`v.id = (SELECT l.version_id FROM prompt_labels l WHERE l.prompt_id = p.id AND l.label = ${label})`
}

function toLangfuse(space: Space, row: VersionRow): LangfusePrompt {
  const labels = row.labels ?? []
  const createdAt = new Date(row.created_at).toISOString()
  return {
    id: row.id,
    createdAt,
    updatedAt: createdAt,
    projectId: spaceId(space),
    createdBy: row.created_by_api_key_id ? 'API' : (row.created_by_user_id ?? 'API'),
    prompt: parsePromptBody(row.type, row.body),
    name: row.name,
    version: row.version_number,
    type: row.type,
    isActive: labels.includes(PRODUCTION_LABEL),
    config: typeof row.config === 'string' ? JSON.parse(row.config) : row.config,
    tags: row.tags,
    labels,
    commitMessage: row.changelog,
  }
}

/**
 * The runtime fetch: one version of a prompt of the key's space by version or label (production
 * when neither is given), in one statement served by the space's name index.
 */
export async function getLangfusePrompt(
  db: Db | Tx,
  space: Space,
  name: string,
  selector: { version?: number; label?: string },
  options: { resolve?: boolean } = {},
): Promise<LangfusePrompt | null> {
  const which =
    selector.version !== undefined
      ? sql`v.version_number = ${selector.version}`
      : labelSelector(selector.label ?? PRODUCTION_LABEL)
  const [row] = await queryRows<VersionRow>(
    db,
    sql`SELECT ${versionColumns} FROM prompts p JOIN prompt_versions v ON v.prompt_id = p.id
      WHERE ${spaceSql(space)} AND p.name = ${name} AND ${which}`,
  )
  return row ? answerOf(db, space, row, options) : null
}

/** The broken references Langfuse answers with 409 when a fetch resolves them. */
const conflictsOnFetch = new Set([
  'reference_missing',
  'reference_not_text',
  'reference_cycle',
  'reference_too_deep',
])

/** A fetched version as Langfuse answers it, its references resolved unless asked raw. */
async function answerOf(
  db: Db | Tx,
  space: Space,
  row: VersionRow,
  options: { resolve?: boolean },
): Promise<LangfusePrompt> {
  // Completed in place, not spread into a copy: a spread that adds keys cost microseconds here, on
  // the runtime fetch's path.
  const answer = toLangfuse(space, row)
  answer.resolutionGraph = null
  if (options.resolve === false || parseReferences(row.body).length === 0) return answer
  // References are replaced by the versions they name (decision 0175). A stored reference that no
  // longer resolves is Langfuse's 409 (LangfuseConflictError); our own size bounds stay a 400.
  const resolved = await resolveInSpace(db, space, {
    id: row.id,
    name: row.name,
    version: row.version_number,
    type: row.type,
    body: row.body,
  }).catch((error: unknown) => {
    if (error instanceof AppError && conflictsOnFetch.has(error.options.reason ?? '')) {
      throw new AppError('conflict', error.messageKey, { params: error.options.params })
    }
    throw error
  })
  answer.prompt = parsePromptBody(row.type, resolved.text)
  answer.resolutionGraph = resolved.graph
  return answer
}

/**
 * The id of the key's prompt of that name, for a statement that reads the key as `k`
 * (`keyRowSelect`): one arm per kind of space, so each is served by its space's name index (an OR
 * of the two spaces made PostgreSQL read every prompt of that name).
 */
const keyPromptId = sql`(SELECT sp.id FROM prompts sp WHERE k.key_team_id IS NULL
    AND sp.owner_user_id = k.key_owner_user_id AND sp.visibility = 'private' AND sp.name = ${sql.placeholder('name')}
  UNION ALL SELECT sp.id FROM prompts sp WHERE sp.team_id = k.key_team_id AND sp.visibility = 'team'
    AND sp.name = ${sql.placeholder('name')})`

/**
 * The key's row and the fetched version (null when there is none), in one statement. Each comes as
 * one JSON column: decoding two dozen columns (each field's parser, a row object of that many
 * keys) cost the driver a third more CPU than the statement's whole JSON.
 */
const keyedFetch = (which: SQL, name: string) =>
  handWrittenOnce<{ key: StoredKeyRow; version: VersionRow | null }>(
    sql`WITH k AS (${keyRowSelect})
      SELECT to_json(k) AS key, CASE WHEN f.id IS NULL THEN NULL ELSE to_json(f) END AS version
      FROM k LEFT JOIN LATERAL (
        SELECT ${versionColumns} FROM prompts p JOIN prompt_versions v ON v.prompt_id = p.id
        WHERE p.id = ${keyPromptId} AND ${which}
      ) f ON true`,
    `promptfolio_langfuse_fetch_${name}`,
  )
const keyedFetchBy = {
  version: keyedFetch(sql`v.version_number = ${sql.placeholder('version')}`, 'version'),
  production: keyedFetch(labelSelector(PRODUCTION_LABEL), 'production'),
  latest: keyedFetch(labelSelector(LATEST_LABEL), 'latest'),
  label: keyedFetch(labelSelector(sql.placeholder('label')), 'label'),
}

/** A fetch's answer as it is sent and kept: its JSON and ETag, or a 404. */
export type FetchedAnswer = CachedPrompt

function fetchedAnswer(prompt: LangfusePrompt | null): FetchedAnswer {
  if (!prompt) return { found: false, body: '', etag: '' }
  const body = JSON.stringify(prompt)
  return { found: true, body, etag: `"${hash('sha1', body, 'base64url')}"` }
}

/** Where a fetch's answer is kept: the space, the name, which version, resolved or raw. */
function answerKey(
  space: SpaceKey,
  name: string,
  selector: { version?: number; label?: string },
  resolve: boolean,
) {
  const which =
    selector.version !== undefined ? `v${selector.version}` : `l${selector.label ?? PRODUCTION_LABEL}`
  return `${space}|${name}\u0000${which}|${resolve ? 'r' : 'raw'}`
}

/**
 * The runtime fetch as an SDK makes it: a key kept by the runtime cache and an answer kept there
 * are served without a statement. Otherwise the key's check and the version are one statement
 * (one round trip instead of two: the fetch's server CPU is mostly its statements), or the version
 * alone when only the key is kept. The key is checked as `authenticateApiKey` checks it, and the
 * version is only answered to a key that passes. Answers are kept only as the database gave them
 * after the last change this process heard of (see `RuntimeCache`).
 */
export async function fetchLangfuseAnswer(
  db: Db,
  plans: PlanGate,
  key: { secret: string; publicKey: string; rateLimitMultiplier: number },
  name: string,
  selector: { version?: number; label?: string },
  options: { resolve?: boolean; reads?: Db } = {},
): Promise<{ principal: ApiKeyPrincipal; answer: FetchedAnswer | null }> {
  const cache = runtimeCacheOf(db)
  const secretHash = hashSecret(key.secret)
  const resolve = options.resolve !== false
  const keptKey = cache?.key<StoredKeyRow>(secretHash)
  if (keptKey) {
    const principal = await principalOfRow(db, plans, keptKey, key.publicKey, key.rateLimitMultiplier, true)
    if (principal.rateLimit.retryAfter !== null) return { principal, answer: null }
    const space = spaceKeyOf(principal.space)
    const where = answerKey(space, name, selector, resolve)
    const kept = cache!.prompt(where)
    if (kept) {
      cache!.answered()
      return { principal, answer: kept.found ? kept : null }
    }
    const ticket = cache!.begin()
    try {
      // The key was checked on the primary; the version may come from a replica new enough to keep.
      const prompt = await atLeast(ticket.floor, () =>
        getLangfusePrompt(options.reads ?? db, principal.space, name, selector, { resolve }),
      )
      return { principal, answer: keep(ticket, where, space, name, prompt) }
    } finally {
      cache!.end(ticket)
    }
  }
  const ticket = cache?.begin()
  try {
    const label = selector.label ?? PRODUCTION_LABEL
    const statement =
      selector.version !== undefined
        ? keyedFetchBy.version
        : label === PRODUCTION_LABEL || label === LATEST_LABEL
          ? keyedFetchBy[label]
          : keyedFetchBy.label
    const [row] = await statement(db, { secretHash, name, version: selector.version, label })
    const principal = await principalOfRow(db, plans, row?.key, key.publicKey, key.rateLimitMultiplier)
    keepKeyRow(db, ticket, secretHash, row?.key)
    if (principal.rateLimit.retryAfter !== null) return { principal, answer: null }
    const prompt = row?.version ? await answerOf(db, principal.space, row.version, { resolve }) : null
    const space = spaceKeyOf(principal.space)
    return { principal, answer: keep(ticket, answerKey(space, name, selector, resolve), space, name, prompt) }
  } finally {
    if (ticket) cache?.end(ticket)
  }

  function keep(
    ticket: LoadTicket | undefined,
    where: string,
    space: SpaceKey,
    name: string,
    prompt: LangfusePrompt | null,
  ): FetchedAnswer | null {
    const answer = fetchedAnswer(prompt)
    if (ticket) {
      // An answer that includes other prompts changes with them.
      const dependsOnSpace = prompt?.resolutionGraph != null
      cache?.keepPrompt(ticket, where, { space, name, dependsOnSpace }, answer)
    }
    return answer.found ? answer : null
  }
}

/**
 * The runtime fetch when this process keeps all it needs: the key's row, passing at once
 * (`keptKeyPrincipal`, which then counts the request in the key's window as `fetchLangfuseAnswer`
 * counts it), and the found answer. Anything missing is null with nothing counted, the answer
 * looked up first so that a fetch whose answer is not kept is never counted here. For the
 * kept-fetch lane, which answers before the framework and leaves every other request to the route.
 */
export async function keptLangfuseAnswer(
  db: Db,
  plans: PlanGate,
  key: { secret: string; publicKey: string; rateLimitMultiplier: number },
  name: string,
  selector: { version?: number; label?: string },
  resolve: boolean,
): Promise<{ principal: ApiKeyPrincipal; answer: FetchedAnswer } | null> {
  const cache = runtimeCacheOf(db)
  const row = cache?.key<StoredKeyRow>(hashSecret(key.secret))
  if (!row) return null
  const space = spaceOfKeyRow(row)
  const answer = cache!.prompt(answerKey(spaceKeyOf(space), name, selector, resolve))
  if (!answer?.found) return null
  const principal = await keptKeyPrincipal(db, plans, row, space, key.publicKey, key.rateLimitMultiplier)
  if (!principal) return null
  cache!.answered()
  return { principal, answer }
}

export function notFoundMessage(name: string, selector: { version?: number; label?: string }): string {
  return selector.version !== undefined
    ? `Prompt not found: '${name}' with version ${selector.version}`
    : `Prompt not found: '${name}' with label '${selector.label ?? PRODUCTION_LABEL}'`
}

function requireWrite(principal: ApiKeyPrincipal): void {
  if (!scopeAllows(principal.scope, 'POST')) throw new AppError('forbidden', 'apiKeys.readOnly')
}

async function lockByName(tx: Tx, space: Space, name: string) {
  const [row] = await tx
    .select(promptColumns)
    .from(prompts)
    .where(and(inSpace(space), eq(prompts.name, name)))
    .for('update', { of: prompts })
  return row
}

async function versionByNumber(tx: Tx, promptId: string, versionNumber: number) {
  const [row] = await tx
    .select({ id: promptVersions.id, versionNumber: promptVersions.versionNumber })
    .from(promptVersions)
    .where(and(eq(promptVersions.promptId, promptId), eq(promptVersions.versionNumber, versionNumber)))
  return row
}

/**
 * POST /v2/prompts: a new version of the named prompt (the prompt too when it is new), numbered
 * max + 1 under the prompt's row lock; its labels move to it; given tags replace the prompt's
 * (they are the same on every version); the type may not change. `variables`: the version's
 * declarations, which the MCP server's create sends; without them (Langfuse's create has none) the
 * current version's are kept.
 */
export async function createLangfuseVersion(
  db: Db,
  plans: PlanGate,
  principal: ApiKeyPrincipal,
  input: LangfuseCreateInput & { variables?: Variables },
): Promise<LangfusePrompt> {
  requireWrite(principal)
  const { space } = principal
  const mover = keyPrincipal(principal)
  const write = {
    versions: [
      {
        body: serializePromptBody(input.type, input.prompt),
        config: input.config,
        variables: input.variables,
        changelog: input.commitMessage ?? null,
      },
    ],
    labels: input.labels.map((label) => [label, 0] as const),
    forbiddenLabels: 'refuse',
  } as const
  const versionNumber = await db
    .transaction(async (tx) => {
      const prompt = await lockByName(tx, space, input.name)
      const { versions } = prompt
        ? await writes.appendVersions(tx, plans, mover, prompt, {
            ...write,
            type: input.type,
            tags: input.tags ?? undefined,
          })
        : await writes.createPrompt(tx, plans, mover, space, {
            ...write,
            name: input.name,
            title: input.name.slice(0, 200),
            type: input.type,
            tags: input.tags ?? [],
          })
      return versions[0]!.versionNumber
    })
    .catch(mapPromptDbError)
  const created = await getLangfusePrompt(db, space, input.name, { version: versionNumber })
  const { resolutionGraph: _, ...answer } = created!
  return answer
}

/** PATCH /v2/prompts/{name}/versions/{version}: add labels (moving them from other versions). */
export async function addLangfuseLabels(
  db: Db,
  principal: ApiKeyPrincipal,
  name: string,
  versionNumber: number,
  newLabels: readonly string[],
): Promise<LangfusePrompt | null> {
  requireWrite(principal)
  const mover = keyPrincipal(principal)
  const found = await db.transaction(async (tx) => {
    const prompt = await lockByName(tx, principal.space, name)
    if (!prompt) return false
    const version = await versionByNumber(tx, prompt.id, versionNumber)
    if (!version) return false
    await writes.moveLabels(
      tx,
      mover,
      prompt,
      newLabels.map((label) => [label, version] as const),
    )
    return true
  })
  if (!found) return null
  const answer = await getLangfusePrompt(db, principal.space, name, { version: versionNumber })
  if (answer) answer.resolutionGraph = undefined
  return answer
}

/**
 * DELETE /v2/prompts/{name}: one version (`version`), the version holding a label (`label`), or
 * the whole prompt, by the app's rule (`deletePromptVersions`): a key never takes a protected
 * label, nothing another prompt includes goes, and a prompt left without versions is deleted.
 * Returns false when nothing matched.
 */
export async function deleteLangfusePrompt(
  db: Db,
  principal: ApiKeyPrincipal,
  name: string,
  selector: { version?: number; label?: string },
): Promise<boolean> {
  requireWrite(principal)
  return db
    .transaction(async (tx) => {
      const prompt = await lockByName(tx, principal.space, name)
      if (!prompt) return false
      const versions = await queryRows<{ id: string; version_number: number }>(
        tx,
        sql`SELECT v.id, v.version_number FROM prompts p JOIN prompt_versions v ON v.prompt_id = p.id
          WHERE p.id = ${prompt.id} ${
            selector.version !== undefined
              ? sql`AND v.version_number = ${selector.version}`
              : selector.label !== undefined
                ? sql`AND ${labelSelector(selector.label)}`
                : sql``
          }`,
      )
      if (versions.length === 0) return false
      const whole = selector.version === undefined && selector.label === undefined
      await writes.deleteVersions(
        tx,
        keyPrincipal(principal),
        prompt,
        whole ? 'all' : versions.map((row) => ({ id: row.id, versionNumber: row.version_number })),
      )
      return true
    })
    .catch(mapPromptDbError)
}

/** GET /v2/prompts: the space's prompts by name with their matching versions, labels and tags. */
export async function listLangfusePrompts(db: Db, space: Space, query: z.output<typeof langfuseListQuery>) {
  const filters = [
    spaceSql(space),
    query.name !== undefined ? sql`p.name = ${query.name}` : undefined,
    query.tag !== undefined ? sql`${query.tag} = ANY (p.tags)` : undefined,
    query.version !== undefined ? sql`v.version_number = ${query.version}` : undefined,
    query.label !== undefined ? labelSelector(query.label) : undefined,
    query.fromUpdatedAt !== undefined ? sql`v.created_at >= ${query.fromUpdatedAt}::timestamptz` : undefined,
    query.toUpdatedAt !== undefined ? sql`v.created_at < ${query.toUpdatedAt}::timestamptz` : undefined,
  ].filter((filter): filter is SQL => filter !== undefined)
  const matching = sql`SELECT ${versionColumns}, p.id AS prompt_id FROM prompts p
    JOIN prompt_versions v ON v.prompt_id = p.id WHERE ${sql.join(filters, sql` AND `)}`
  const [total] = await queryRows<{ n: number | string }>(
    db,
    sql`SELECT count(DISTINCT prompt_id) AS n FROM (${matching}) m`,
  )
  const rows = await queryRows<VersionRow & { prompt_id: string }>(
    db,
    sql`WITH m AS (${matching}),
      page AS (SELECT DISTINCT prompt_id, name FROM m ORDER BY name LIMIT ${query.limit} OFFSET ${(query.page - 1) * query.limit})
      SELECT m.* FROM m JOIN page USING (prompt_id) ORDER BY m.name, m.version_number`,
  )
  const byPrompt = new Map<string, (VersionRow & { prompt_id: string })[]>()
  for (const row of rows) byPrompt.set(row.prompt_id, [...(byPrompt.get(row.prompt_id) ?? []), row])
  const data = [...byPrompt.values()].map((versions) => {
    const last = versions[versions.length - 1]!
    const answers = versions.map((row) => toLangfuse(space, row))
    return {
      name: last.name,
      type: last.type,
      versions: answers.map((answer) => answer.version),
      // Langfuse sorts a prompt's labels in the list.
      labels: [...new Set(answers.flatMap((answer) => answer.labels))].sort(),
      tags: last.tags,
      lastUpdatedAt: answers
        .map((answer) => answer.createdAt)
        .sort()
        .at(-1)!,
      lastConfig: answers[answers.length - 1]!.config,
    }
  })
  const totalItems = Number(total?.n ?? 0)
  const meta = {
    page: query.page,
    limit: query.limit,
    totalItems,
    totalPages: Math.ceil(totalItems / query.limit),
  }
  return { data, meta, pagination: meta }
}
