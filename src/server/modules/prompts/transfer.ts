import { and, asc, eq, inArray, type SQL } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { isMessageKey, type Locale, translate } from '../../../domain/messages/index.ts'
import {
  LATEST_LABEL,
  PRODUCTION_LABEL,
  type PromptConfig,
  sameConfig,
} from '../../../domain/prompt-names.ts'
import { parseReferences } from '../../../domain/prompt-references.ts'
import {
  type ExportedPrompt,
  type exportPromptsQuery,
  IMPORT_MAX_PROMPTS,
  type ImportedPrompt,
  type ImportResult,
  importableLabels,
  importedPromptSchema,
  type importInput,
  PROMPTS_FORMAT,
  type PromptsDocument,
  promptsOfDocument,
} from '../../../domain/prompt-transfer.ts'
import { sameVariables, type Variables } from '../../../domain/prompt-variables.ts'
import type { Space } from '../../../domain/spaces.ts'
import { fieldErrorsOf } from '../../../domain/validation.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import { principalOf } from '../../core/principal.ts'
import { roleInTeam } from '../../core/team-membership.ts'
import type { Db, Tx } from '../../db/client.ts'
import { afterCursor, cursorTimestamp } from '../../db/queries.ts'
import { promptLabels, prompts, promptVersions, teams } from '../../db/schema/index.ts'
import { StreamedArray } from '../../http/input.ts'
import { type PromptRow, promptWithRights, teamReachOf } from './access.ts'
import { batchPipeline } from './batch-pipeline.ts'
import { inSpace } from './names.ts'
import { requirePromptAccess } from './policy.ts'
import { onceEachReference, referenceAppError, unresolvableBody } from './references.ts'
import { storedBody } from './service.ts'
import { versionColumns } from './summaries.ts'
import * as writes from './writes.ts'

/** Prompts read per statement while exporting. */
const BATCH = 200

/** Every prompt `where` selects, with every version, config and label, in creation order. */
export async function exportedPrompts(
  db: Db,
  where: SQL,
  progress: (done: number) => Promise<unknown> = async () => {},
): Promise<ExportedPrompt[]> {
  const exported: ExportedPrompt[] = []
  for await (const batch of exportedPromptBatches(db, where)) {
    exported.push(...batch)
    await progress(exported.length)
  }
  return exported
}

/** `items` by `key`, each group in the order given (Node 20 has no `Map.groupBy`). */
function groupedBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const group = groups.get(key(item))
    if (group) group.push(item)
    else groups.set(key(item), [item])
  }
  return groups
}

/**
 * `exportedPrompts` a batch at a time: each batch's prompts read after the last one's (by creation
 * time and id, the export's order), then their versions and labels, so an export holds one batch
 * in memory, never the whole space.
 */
export async function* exportedPromptBatches(db: Db, where: SQL): AsyncGenerator<ExportedPrompt[]> {
  let after: { at: string; id: string } | undefined
  for (;;) {
    const batch = await db
      .select({
        id: prompts.id,
        name: prompts.name,
        title: prompts.title,
        description: prompts.description,
        type: prompts.type,
        tags: prompts.tags,
        visibility: prompts.visibility,
        team: teams.name,
        currentVersionId: prompts.currentVersionId,
        createdAt: prompts.createdAt,
        updatedAt: prompts.updatedAt,
        // The cursor's time as the database has it: a Date would cut its microseconds.
        at: cursorTimestamp(prompts.createdAt),
      })
      .from(prompts)
      .leftJoin(teams, eq(teams.id, prompts.teamId))
      .where(
        and(
          where,
          after && afterCursor({ column: prompts.createdAt, kind: 'timestamp' }, prompts.id, after, 'asc'),
        ),
      )
      .orderBy(asc(prompts.createdAt), asc(prompts.id))
      .limit(BATCH)
    if (batch.length === 0) return
    const last = batch.at(-1)!
    after = { at: last.at, id: last.id }
    const ids = batch.map((prompt) => prompt.id)
    const versions = await db
      .select(versionColumns)
      .from(promptVersions)
      .where(inArray(promptVersions.promptId, ids))
      .orderBy(asc(promptVersions.promptId), asc(promptVersions.versionNumber))
    const labels = await db.select().from(promptLabels).where(inArray(promptLabels.promptId, ids))
    const versionsOf = groupedBy(versions, (version) => version.promptId)
    const labelsOf = groupedBy(labels, (label) => label.versionId)
    yield batch.map((prompt) => {
      const own = versionsOf.get(prompt.id) ?? []
      const latest = own.at(-1)?.id
      return {
        id: prompt.id,
        name: prompt.name,
        title: prompt.title,
        description: prompt.description,
        type: prompt.type,
        tags: prompt.tags,
        visibility: prompt.visibility,
        team: prompt.team,
        createdAt: prompt.createdAt.toISOString(),
        updatedAt: prompt.updatedAt.toISOString(),
        currentVersion: own.find((version) => version.id === prompt.currentVersionId)?.versionNumber ?? null,
        versions: own.map((version) => ({
          version: version.versionNumber,
          body: version.body,
          config: version.config,
          variables: version.variables,
          changelog: version.changelog,
          labels: [
            ...(version.id === prompt.currentVersionId ? [PRODUCTION_LABEL] : []),
            ...(version.id === latest ? [LATEST_LABEL] : []),
            ...(labelsOf.get(version.id) ?? []).map((label) => label.label),
          ],
          createdAt: version.createdAt.toISOString(),
        })),
      }
    })
    if (batch.length < BATCH) return
  }
}

/**
 * The space a caller names: their personal prompts, or a team they are in and reach (else 404; a
 * personal key reaches no team).
 */
async function spaceFor(db: Db | Tx, actor: Actor, teamId: string | null | undefined): Promise<Space> {
  if (!teamId) return { kind: 'personal', userId: actor.id }
  const member = teamReachOf(actor)
  if (!member || !(await roleInTeam(db, teamId, member))) throw new AppError('not_found', 'teams.notFound')
  return { kind: 'team', teamId }
}

/**
 * `GET /api/v1/prompts/export`: a whole space, or the prompts of it named by `ids`, as the text of
 * one `PromptsDocument` in pieces (`{"format":…,"exportedAt":…,"prompts":[` then each batch of
 * prompts, then `]}`), the same bytes as `JSON.stringify` of the whole document. The space is
 * checked before the first piece, so a refusal is an ordinary error answer.
 */
export async function exportPrompts(
  db: Db,
  actor: Actor,
  query: z.output<typeof exportPromptsQuery>,
  /** Where the prompts are read (a replica may serve them); the membership check stays on `db`. */
  reads: Db = db,
): Promise<AsyncIterable<string>> {
  const space = await spaceFor(db, actor, query.teamId)
  const where = and(inSpace(space), query.ids ? inArray(prompts.id, query.ids) : undefined)!
  const head: Omit<PromptsDocument, 'prompts'> = {
    format: PROMPTS_FORMAT,
    exportedAt: new Date().toISOString(),
  }
  return (async function* () {
    yield `${JSON.stringify(head).slice(0, -1)},"prompts":[`
    let first = true
    for await (const batch of exportedPromptBatches(reads, where)) {
      yield `${first ? '' : ','}${batch.map((prompt) => JSON.stringify(prompt)).join(',')}`
      first = false
    }
    yield ']}'
  })()
}

/** New prompts an import writes per batch (`writes.createPrompts`: a few statements for all). */
const IMPORT_BATCH = 500

/** A version an existing prompt has, as the import compares it with the file's. */
interface HadVersion {
  id: string
  versionNumber: number
  body: string
  config: PromptConfig
  variables: Variables
}

/** A prompt the import adds versions to: its line in the result, and the versions added. */
interface ReferenceCheck {
  item: number
  prompt: PromptRow
  versions: { id: string; versionNumber: number; body: string }[]
}

/**
 * Every version an import adds must resolve in the space as the import leaves it (the file's own
 * prompts count, in any order): one that names a missing prompt, forms a cycle, nests too deep or
 * expands past the bounds (decision 0239) makes its prompt a conflict (problem 'reference', the
 * reason in `detail`), so the dry run shows it and the import is refused (decision 0210).
 */
async function checkReferences(
  tx: Tx,
  space: Space,
  locale: Locale,
  result: ImportResult,
  checks: readonly ReferenceCheck[],
): Promise<void> {
  // Nothing is written while the check runs, so a reference answers the same every time: many
  // versions of a file may name one prompt (the benchmark's 3,077), loaded once.
  const load = onceEachReference(tx, space)
  for (const { item, prompt, versions } of checks) {
    for (const version of versions) {
      const problem = await unresolvableBody(
        tx,
        space,
        {
          id: version.id,
          name: prompt.name,
          version: version.versionNumber,
          type: prompt.type,
          body: version.body,
        },
        load,
      )
      if (!problem) continue
      const entry = result.items[item]!
      if (entry.action === 'create') result.created--
      else result.versioned--
      result.conflicts++
      const refused = referenceAppError(problem)
      result.items[item] = {
        ...entry,
        action: 'conflict',
        problem: 'reference',
        detail: translate(locale, refused.messageKey, refused.options.params),
      }
      break
    }
  }
}

/**
 * The versions with a reference, the only ones the check can refuse: the other prompts and bodies
 * are not held until every prompt of the file is in.
 */
function referring<V extends { body: string }>(versions: readonly V[]): V[] {
  return versions.filter((version) => parseReferences(version.body).length > 0)
}

/** Thrown to roll a dry run back after it did everything a real import does. */
class DryRunDone extends Error {
  constructor(readonly result: ImportResult) {
    super('dry run')
  }
}

/** The file's prompts, checked: how many, their names, and the prompts themselves when the import comes to them. */
interface IncomingPrompts {
  total: number
  names: string[]
  prompts: () => AsyncIterable<ImportedPrompt> | Iterable<ImportedPrompt>
}

/**
 * The document's prompts, every one validated before anything is written (the first problem, in
 * the file's order, refuses the import). A Promptfolio export's prompts arrive as the body's
 * `StreamedArray`: they are validated as they are parsed and parsed again when written, so the
 * file's prompts are never all in memory. The other formats (Langfuse, Markdown) are built whole.
 */
async function incomingPrompts(document: unknown, locale: Locale): Promise<IncomingPrompts> {
  const streamed =
    typeof document === 'object' && document !== null && !Array.isArray(document)
      ? (document as { prompts?: unknown }).prompts
      : undefined
  const found =
    streamed instanceof StreamedArray
      ? { prompts: streamed.elements.bind(streamed), total: streamed.length }
      : (() => {
          const inTree = promptsOfDocument(document)
          return inTree && { prompts: () => inTree.prompts, total: inTree.prompts.length }
        })()
  if (!found) {
    throw new AppError('validation', 'prompts.importUnknownFormat', {
      fields: { document: 'prompts.importUnknownFormat' },
    })
  }
  if (found.total === 0) {
    throw new AppError('validation', 'prompts.importEmpty', { fields: { document: 'prompts.importEmpty' } })
  }
  if (found.total > IMPORT_MAX_PROMPTS) {
    throw new AppError('validation', 'prompts.importTooMany', {
      params: { max: IMPORT_MAX_PROMPTS },
      fields: { document: 'prompts.importTooMany' },
    })
  }
  const valid = (raw: unknown, index: number): ImportedPrompt => {
    const parsed = importedPromptSchema.safeParse(raw)
    if (parsed.success) return parsed.data
    const [field, message] = Object.entries(fieldErrorsOf(parsed.error))[0] ?? ['_', 'error.validation']
    throw new AppError('validation', 'prompts.importInvalid', {
      params: {
        index: index + 1,
        field,
        problem: translate(locale, isMessageKey(message) ? message : 'error.invalidValue'),
      },
      fields: { document: 'prompts.importInvalid' },
    })
  }
  const seen = new Set<string>()
  /** The validated prompts when the document was built whole anyway. */
  const kept: ImportedPrompt[] = []
  let index = 0
  for await (const raw of found.prompts()) {
    const prompt = valid(raw, index++)
    if (seen.has(prompt.name)) {
      throw new AppError('validation', 'prompts.importDuplicate', {
        params: { name: prompt.name },
        fields: { document: 'prompts.importDuplicate' },
      })
    }
    seen.add(prompt.name)
    if (!(streamed instanceof StreamedArray)) kept.push(prompt)
  }
  return {
    total: found.total,
    names: [...seen],
    prompts:
      streamed instanceof StreamedArray
        ? async function* () {
            let again = 0
            for await (const raw of streamed.elements()) yield valid(raw, again++)
          }
        : () => kept,
  }
}

/**
 * Imports prompts into a space in one transaction. A prompt whose name is new is created with all
 * its versions; an existing one (that the caller may edit, of the same type) gets the versions it
 * does not have yet (same body and config = had), so importing the same file again changes nothing.
 * Labels go where the file puts them (production is the current version; protected labels only
 * where the caller may move them, except that a new prompt starts current as the app's create
 * makes it). A dry run does all of it and rolls back, so its answer is exactly
 * what the import would do; a real import with a conflict changes nothing. `progress` hears of
 * every prompt done (the HTTP layer sends it as NDJSON lines when asked).
 */
export async function importPrompts(
  db: Db,
  plans: PlanGate,
  actor: Actor,
  input: z.output<typeof importInput>,
  progress: (done: number, total: number) => Promise<void> = async () => {},
): Promise<ImportResult> {
  const incoming = await incomingPrompts(input.document, actor.locale)
  // The raw document (a whole space's JSON tree) is let go once its prompts are parsed: the request's
  // input, which the HTTP layer holds until the answer ends, is its only other holder.
  input.document = null
  try {
    return await db.transaction(async (tx) => {
      const space = await spaceFor(tx, actor, input.teamId)
      const result: ImportResult = {
        dryRun: input.dryRun,
        created: 0,
        versioned: 0,
        unchanged: 0,
        conflicts: 0,
        items: [],
      }
      const mover = principalOf(actor)
      /** The versions this import adds, checked once every prompt of the file is in. */
      const toCheck: ReferenceCheck[] = []
      // Every prompt of the space the file names, locked, and their versions: one statement each.
      const existingByName = new Map(
        (
          await tx
            .select(promptWithRights(actor.id))
            .from(prompts)
            .where(and(inSpace(space), inArray(prompts.name, incoming.names)))
            .orderBy(asc(prompts.id))
            .for('update')
        ).map((row) => [row.name, row]),
      )
      const versionsHad = new Map<string, HadVersion[]>()
      if (existingByName.size > 0) {
        const rows = await tx
          .select({
            promptId: promptVersions.promptId,
            id: promptVersions.id,
            versionNumber: promptVersions.versionNumber,
            body: promptVersions.body,
            config: promptVersions.config,
            variables: promptVersions.variables,
          })
          .from(promptVersions)
          .where(
            inArray(
              promptVersions.promptId,
              [...existingByName.values()].map((row) => row.id),
            ),
          )
          .orderBy(asc(promptVersions.promptId), asc(promptVersions.versionNumber))
        for (const { promptId, ...version } of rows) {
          const list = versionsHad.get(promptId) ?? []
          if (list.length === 0) versionsHad.set(promptId, list)
          list.push(version)
        }
      }
      /** The new prompts of the batch under way, written together at its end. */
      let batch: { item: number; input: writes.NewPrompt & writes.VersionsWrite }[] = []
      // The database writes one batch while the next is parsed and planned (decision 0273).
      const pipeline = batchPipeline()
      const writeBatch = async () => {
        const writing = batch
        batch = []
        await pipeline.start(async () => {
          const written = await writes.createPrompts(
            tx,
            plans,
            mover,
            space,
            writing.map((entry) => entry.input),
          )
          for (const [index, { prompt, versions }] of written.entries()) {
            const check = referring(versions)
            if (check.length > 0) toCheck.push({ item: writing[index]!.item, prompt, versions: check })
          }
        })
      }
      /** Every prompt of the file planned, its batch written when full, and the last batch started. */
      const planAll = async () => {
        let index = -1
        for await (const imported of incoming.prompts()) {
          index++
          if (batch.length >= IMPORT_BATCH) await writeBatch()
          await pipeline.between()
          await progress(index, incoming.total)
          const existing = existingByName.get(imported.name)
          const conflict = (problem: string) => {
            result.conflicts++
            result.items.push({ name: imported.name, action: 'conflict', newVersions: 0, problem })
          }
          if (existing && existing.type !== imported.type) {
            conflict('type')
            continue
          }
          if (existing) {
            try {
              requirePromptAccess(actor, existing, 'edit')
            } catch {
              conflict('not_editable')
              continue
            }
          }
          let bodies: string[]
          try {
            bodies = imported.versions.map((version) => storedBody(imported.type, version.body))
          } catch {
            conflict('body')
            continue
          }
          const had = existing ? (versionsHad.get(existing.id) ?? []) : []
          /** The versions the prompt does not have yet; a label names one by its index here. */
          const toAdd: (writes.NewVersion & { variables: Variables })[] = []
          const same = (a: { body: string; config: PromptConfig; variables: Variables }) => (b: typeof a) =>
            a.body === b.body && sameConfig(a.config, b.config) && sameVariables(a.variables, b.variables)
          // Where the file puts each label (the last version naming it wins), placed once per prompt.
          const labelTargets = new Map<string, writes.LabelTarget>()
          let last: writes.LabelTarget | undefined = had.at(-1)
          for (const [index, version] of imported.versions.entries()) {
            const wanted = { ...version, body: bodies[index]! }
            let target: writes.LabelTarget | undefined = had.find(same(wanted))
            if (!target) {
              const known = toAdd.findIndex(same(wanted))
              target = known >= 0 ? known : toAdd.push(wanted) - 1
              last = toAdd.length - 1
            }
            if (version.labels.includes(PRODUCTION_LABEL)) labelTargets.set(PRODUCTION_LABEL, target)
            for (const label of importableLabels(version.labels)) labelTargets.set(label, target)
          }
          // Without a production label in the file, a new prompt's current version is its last one.
          if (!existing && !labelTargets.has(PRODUCTION_LABEL)) labelTargets.set(PRODUCTION_LABEL, last!)
          const write = {
            versions: toAdd,
            labels: [...labelTargets],
            forbiddenLabels: 'skip',
            deferReferenceCheck: true,
          } as const
          if (!existing) {
            // Every version of a new prompt is written: its line is known before the batch is.
            batch.push({ item: result.items.length, input: { ...imported, ...write } })
            result.created++
            result.items.push({
              name: imported.name,
              action: 'create',
              newVersions: toAdd.length,
              problem: null,
            })
            continue
          }
          // After the batch in flight, as the sequential import wrote them (one statement at a time).
          await pipeline.settled()
          const { prompt, versions: inserted } = await writes.appendVersions(
            tx,
            plans,
            mover,
            existing,
            write,
          )
          const added = inserted.length
          const check = referring(inserted)
          if (check.length > 0) toCheck.push({ item: result.items.length, prompt, versions: check })
          if (added > 0) result.versioned++
          else result.unchanged++
          result.items.push({
            name: imported.name,
            action: added > 0 ? 'version' : 'unchanged',
            newVersions: added,
            problem: null,
          })
        }
        await writeBatch()
      }
      try {
        await planAll()
      } catch (thrown) {
        await pipeline.finish({ thrown })
      }
      await pipeline.finish()
      await progress(incoming.total, incoming.total)
      await checkReferences(tx, space, actor.locale, result, toCheck)
      if (input.dryRun) throw new DryRunDone(result)
      if (result.conflicts > 0) {
        throw new AppError('conflict', 'prompts.importConflicts', {
          params: { count: result.conflicts },
          reason: 'import_conflicts',
        })
      }
      return result
    })
  } catch (error) {
    if (error instanceof DryRunDone) return error.result
    throw error
  }
}
