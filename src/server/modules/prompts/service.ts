import { and, desc, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import type { Page } from '../../../domain/cursor.ts'
import { AppError } from '../../../domain/errors.ts'
import { isUuid } from '../../../domain/ids.ts'
import { type MessageKey, translate } from '../../../domain/messages/index.ts'
import { mayChangeSharing } from '../../../domain/permissions.ts'
import { subjectKeyOf, subjectOf } from '../../../domain/plans.ts'
import {
  chatBodyProblem,
  PRODUCTION_LABEL,
  type PromptType,
  parsePromptBody,
  sameConfig,
  serializePromptBody,
} from '../../../domain/prompt-names.ts'
import { sameVariables } from '../../../domain/prompt-variables.ts'
import type {
  createPromptInput,
  listVersionsQuery,
  PromptDetail,
  PromptVersion,
  PromptVisibility,
  updatePromptInput,
  VersionSummary,
} from '../../../domain/prompts.ts'
import { spaceOf } from '../../../domain/spaces.ts'
import { enqueueEvent, eventActor, promptData } from '../../core/events.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import { principalOf } from '../../core/principal.ts'
import { roleInTeam } from '../../core/team-membership.ts'
import type { Db, Tx } from '../../db/client.ts'
import { builtOnce } from '../../db/prepared.ts'
import { pageCondition, toPage } from '../../db/queries.ts'
import { prompts, promptVersions } from '../../db/schema/index.ts'
import {
  findVisiblePrompt,
  lockVisiblePrompt,
  type PromptRow,
  promptColumns,
  promptNotFound,
  promptVisibleTo,
  teamReachOf,
} from './access.ts'
import { mapPromptDbError } from './db-errors.ts'
import { freeNameFromTitle } from './names.ts'
import { requirePromptAccess } from './policy.ts'
import { promptsIncluding } from './references.ts'
import {
  labelColumns,
  selectDetails,
  toDetail,
  toVersion,
  toVersionSummary,
  versionColumns,
  versionSummaryColumns,
} from './summaries.ts'
import * as writes from './writes.ts'

const versionNotFound = () => new AppError('not_found', 'prompts.versionNotFound')

/**
 * The detail's select with placeholders, built once (`builtOnce`). Named: it finds one row by its
 * primary key, so its plan does not depend on the values, and planning it anew cost PostgreSQL
 * 1.0–1.3 ms per request against 0.2–0.6 ms to run it (decision 0278).
 */
const detailStatement = builtOnce((db) => {
  const viewer = sql.placeholder('viewer')
  return selectDetails(db, viewer)
    .where(
      and(eq(prompts.id, sql.placeholder('promptId')), promptVisibleTo(viewer, sql.placeholder('member'))),
    )
    .prepare('promptfolio_prompt_detail')
})

/** The detail page's data: the prompt with its current version and what the caller may do. */
export async function getPromptDetail(db: Db | Tx, actor: Actor, promptId: string): Promise<PromptDetail> {
  const [row] = await detailStatement(db, undefined).execute({
    viewer: actor.id,
    member: teamReachOf(actor),
    promptId,
  })
  if (!row) throw promptNotFound()
  return toDetail(actor, row)
}

/** The history, newest first, a page at a time; bodies only as their preview. */
export async function listVersions(
  db: Db,
  actor: Actor,
  promptId: string,
  query: z.output<typeof listVersionsQuery>,
  /** Where the versions are read (a replica may serve them); who may see the prompt is asked of `db`. */
  reads: Db = db,
): Promise<Page<VersionSummary>> {
  if (!(await findVisiblePrompt(db, actor, promptId))) throw promptNotFound()
  const rows = await reads
    .select(versionSummaryColumns)
    .from(promptVersions)
    .where(
      and(
        eq(promptVersions.promptId, promptId),
        pageCondition(
          { column: promptVersions.versionNumber, kind: 'number' },
          promptVersions.id,
          query.cursor,
        ),
      ),
    )
    .orderBy(desc(promptVersions.versionNumber), desc(promptVersions.id))
    .limit(query.limit + 1)
  return toPage(rows, query.limit, (row) => row.versionNumber, toVersionSummary)
}

export async function getVersion(
  db: Db,
  actor: Actor,
  promptId: string,
  versionId: string,
  /** Where the version is read (a replica may serve it); who may see the prompt is asked of `db`. */
  reads: Db = db,
): Promise<PromptVersion> {
  if (!(await findVisiblePrompt(db, actor, promptId))) throw promptNotFound()
  const [row] = await reads
    .select({ ...versionColumns, ...labelColumns })
    .from(promptVersions)
    .where(and(eq(promptVersions.id, versionId), eq(promptVersions.promptId, promptId)))
  if (!row) throw versionNotFound()
  return toVersion(row)
}

async function currentVersionOf(tx: Tx, prompt: PromptRow) {
  if (!prompt.currentVersionId) return undefined
  const [row] = await tx
    .select({
      versionNumber: promptVersions.versionNumber,
      body: promptVersions.body,
      config: promptVersions.config,
      variables: promptVersions.variables,
    })
    .from(promptVersions)
    .where(eq(promptVersions.id, prompt.currentVersionId))
  return row
}

/**
 * The body as stored: a text prompt's text, or a chat prompt's entries as compact JSON. A chat body
 * that is not a list of messages and placeholders is a 400 on `field` (a draft's is `draft.body`).
 */
export function storedBody(type: PromptType, body: string, field = 'body'): string {
  if (type === 'text') return body
  const problem = chatBodyProblem(body)
  if (problem) {
    const key = problem.key as MessageKey
    throw new AppError('validation', key, { params: problem.params, fields: { [field]: key } })
  }
  return serializePromptBody('chat', parsePromptBody('chat', body))
}

/**
 * Team visibility needs one of the owner's teams, and a request a team is within reach of (a
 * personal key's is not); private prompts belong to no team.
 */
async function resolveSharing(
  tx: Tx,
  actor: Actor,
  visibility: PromptVisibility,
  teamId: string | null,
): Promise<{ visibility: PromptVisibility; teamId: string | null }> {
  if (visibility === 'private') return { visibility, teamId: null }
  if (!teamId) {
    throw new AppError('validation', 'prompts.teamRequired', { fields: { teamId: 'prompts.teamRequired' } })
  }
  if (teamReachOf(actor) === null) {
    throw new AppError('validation', 'apiKeys.personalSpaceOnly', {
      fields: { teamId: 'apiKeys.personalSpaceOnly' },
    })
  }
  if (!(await roleInTeam(tx, teamId, actor.id))) {
    throw new AppError('validation', 'prompts.notTeamMember', { fields: { teamId: 'prompts.notTeamMember' } })
  }
  return { visibility, teamId }
}

/**
 * Create: the prompt, version 1 ('Initial version') and its current version, in one transaction
 * (`writes.createPrompt`: the plan gate of its space holds the space's lock until the commit, so
 * writers at the limit cannot both pass). A key's first version waits for a team admin where
 * production is protected, as at the Langfuse door.
 */
export async function createPrompt(
  db: Db,
  plans: PlanGate,
  actor: Actor,
  input: z.output<typeof createPromptInput>,
): Promise<PromptDetail> {
  const body = storedBody(input.type, input.body)
  const promptId = await db
    .transaction(async (tx) => {
      const sharing = await resolveSharing(tx, actor, input.visibility, input.teamId)
      const space = spaceOf({ ...sharing, ownerUserId: actor.id })
      const name = input.name ?? (await freeNameFromTitle(tx, space, input.title))
      const { prompt } = await writes.createPrompt(tx, plans, principalOf(actor), space, {
        name,
        title: input.title,
        description: input.description,
        tags: input.tags,
        type: input.type,
        versions: [
          {
            body,
            config: input.config,
            variables: input.variables,
            changelog: translate(actor.locale, 'prompts.initialChangelog'),
          },
        ],
        labels: [[PRODUCTION_LABEL, 0]],
        forbiddenLabels: 'skip',
      })
      return prompt.id
    })
    .catch(mapPromptDbError)
  return getPromptDetail(db, actor, promptId)
}

/**
 * Save: update the metadata; when the trimmed body or the config differs from the current
 * version's, add the next version (changelog or 'Updated prompt content'), current unless
 * 'production' is protected from this editor (then it waits for a team admin). One transaction,
 * holding the prompt's row lock, so concurrent saves queue up and number their versions 1, 2, 3...
 */
export async function savePrompt(
  db: Db,
  plans: PlanGate,
  actor: Actor,
  promptId: string,
  input: z.output<typeof updatePromptInput>,
): Promise<PromptDetail> {
  await db
    .transaction(async (tx) => {
      const prompt = await lockVisiblePrompt(tx, actor, promptId)
      requirePromptAccess(actor, prompt, 'edit')
      const current = await currentVersionOf(tx, prompt)
      if (input.baseVersionId !== undefined && input.baseVersionId !== prompt.currentVersionId) {
        throw new AppError('conflict', 'prompts.staleVersion', {
          params: { version: String(current?.versionNumber ?? '—') },
          reason: 'stale_version',
        })
      }
      const visibilityChanges =
        (input.visibility !== undefined && input.visibility !== prompt.visibility) ||
        (input.teamId !== undefined && input.teamId !== prompt.teamId)
      if (visibilityChanges && !mayChangeSharing(actor, prompt)) {
        throw new AppError('forbidden', 'prompts.sharingForbidden')
      }
      const sharing: Partial<Awaited<ReturnType<typeof resolveSharing>>> = visibilityChanges
        ? await resolveSharing(
            tx,
            actor,
            input.visibility ?? prompt.visibility,
            input.teamId !== undefined ? input.teamId : prompt.teamId,
          )
        : {}
      // Editing needs a plan that allows writing; moving the prompt to another space counts there.
      const from = subjectOf(prompt.ownerUserId, prompt.teamId)
      const to = sharing.visibility ? subjectOf(prompt.ownerUserId, sharing.teamId) : from
      await plans.require(tx, to, subjectKeyOf(to) === subjectKeyOf(from) ? 'editPrompt' : 'createPrompt')
      const body = input.body === undefined ? current?.body : storedBody(prompt.type, input.body)
      const config = input.config ?? current?.config ?? {}
      const variables = input.variables === undefined ? (current?.variables ?? []) : (input.variables ?? [])
      const changed =
        body !== current?.body ||
        !sameConfig(config, current?.config ?? {}) ||
        !sameVariables(variables, current?.variables ?? [])
      // The metadata first, so the new version resolves its references under the prompt's new name
      // and in its new space.
      const [updated] = await tx
        .update(prompts)
        .set({
          ...(input.title !== undefined && { title: input.title }),
          ...(input.name !== undefined && { name: input.name }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.tags !== undefined && { tags: input.tags }),
          ...sharing,
          updatedAt: sql`now()`,
        })
        .where(eq(prompts.id, promptId))
        .returning(promptColumns)
      const mover = principalOf(actor)
      if (body !== undefined && changed) {
        await writes.appendVersions(tx, plans, mover, updated!, {
          versions: [
            {
              body,
              config,
              variables,
              changelog: input.changelog ?? translate(actor.locale, 'prompts.updatedChangelog'),
            },
          ],
          labels: [[PRODUCTION_LABEL, 0]],
          forbiddenLabels: 'skip',
        })
      }
      const metadataChanged = (
        ['title', 'name', 'description', 'tags', 'visibility', 'teamId'] as const
      ).some((field) => input[field] !== undefined)
      if (metadataChanged) {
        await enqueueEvent(tx, spaceOf(updated!), {
          type: 'prompt.updated',
          actor: eventActor(mover),
          data: { prompt: promptData(updated!) },
        })
      }
    })
    .catch(mapPromptDbError)
  return getPromptDetail(db, actor, promptId)
}

/** The prompt's version `versionId` (its id and number), else 404 'Version not found'. */
export async function findVersion(tx: Tx, promptId: string, versionId: string) {
  if (!isUuid(versionId)) throw versionNotFound()
  const [version] = await tx
    .select({ id: promptVersions.id, versionNumber: promptVersions.versionNumber })
    .from(promptVersions)
    .where(and(eq(promptVersions.id, versionId), eq(promptVersions.promptId, promptId)))
  if (!version) throw versionNotFound()
  return version
}

/** Set as Current: the owner makes one of the prompt's versions current. */
export async function setCurrentVersion(
  db: Db,
  actor: Actor,
  promptId: string,
  versionId: string,
): Promise<PromptDetail> {
  await db.transaction(async (tx) => {
    const prompt = await lockVisiblePrompt(tx, actor, promptId)
    requirePromptAccess(actor, prompt, 'setCurrent')
    const version = await findVersion(tx, promptId, versionId)
    await writes.moveLabels(tx, principalOf(actor), prompt, [[PRODUCTION_LABEL, version]])
  })
  return getPromptDetail(db, actor, promptId)
}

/** The app's delete: the owner deletes the prompt with its attachments and versions. */
export async function deletePrompt(db: Db, actor: Actor, promptId: string): Promise<void> {
  await db
    .transaction(async (tx) => {
      const prompt = await lockVisiblePrompt(tx, actor, promptId)
      requirePromptAccess(actor, prompt, 'delete')
      await writes.deletePrompt(tx, principalOf(actor), prompt)
    })
    .catch(mapPromptDbError)
}

/** "Used by": the prompts of the same space that include this one (the caller must see it). */
export async function listPromptDependents(db: Db, actor: Actor, promptId: string) {
  const detail = await getPromptDetail(db, actor, promptId)
  const items = await promptsIncluding(db, spaceOf(detail), detail)
  return { items, nextCursor: null }
}
