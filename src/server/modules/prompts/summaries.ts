import { eq, getTableColumns, sql } from 'drizzle-orm'
import type { Actor } from '../../../domain/auth.ts'
import { HISTORY_PREVIEW_LENGTH } from '../../../domain/constants.ts'
import { promptAccess } from '../../../domain/permissions.ts'
import { PRODUCTION_LABEL, versionLabels } from '../../../domain/prompt-names.ts'
import {
  historyPreview,
  type PromptDetail,
  type PromptSummary,
  type PromptVersion,
  type VersionSummary,
} from '../../../domain/prompts.ts'
import type { Db, Tx } from '../../db/client.ts'
import { cursorTimestamp, isoTimestampText, type Param } from '../../db/queries.ts'
import { prompts, promptVersions, users } from '../../db/schema/index.ts'
import { promptRightsColumns } from './access.ts'

/**
 * The select behind every PromptSummary (lists and detail): the prompt, its current version's
 * number, its version count, and the owner's email when the viewer may know it. Not the body: a
 * list row copies it on demand, and bodies were most of a list page's bytes (decision 0238).
 */
function summaryColumns(viewerId: Param<string>) {
  return {
    id: prompts.id,
    ownerUserId: prompts.ownerUserId,
    // The owner's email is shown to the owner, and to members of the prompt's team while the
    // owner is still one of them; otherwise the screen says 'Member'.
    ownerEmail: sql<string | null>`CASE WHEN ${prompts.ownerUserId} = ${viewerId} OR (
        EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = ${prompts.teamId} AND o.user_id = ${prompts.ownerUserId})
        AND EXISTS (SELECT 1 FROM team_members v WHERE v.team_id = ${prompts.teamId} AND v.user_id = ${viewerId})
      ) THEN ${users.email} END`,
    ownerDeleted: sql<boolean>`(${users.deletedAt} IS NOT NULL)`,
    teamId: prompts.teamId,
    title: prompts.title,
    name: prompts.name,
    type: prompts.type,
    description: prompts.description,
    tags: prompts.tags,
    visibility: prompts.visibility,
    currentVersionId: prompts.currentVersionId,
    currentVersionNumber: promptVersions.versionNumber,
    versionCount: sql<number>`(SELECT count(*)::int FROM prompt_versions c WHERE c.prompt_id = ${prompts.id})`,
    // Served by the (prompt_id, label) key; 'production' is the current version, not a row.
    promptLabels: sql<
      string[]
    >`ARRAY(SELECT pl.label FROM prompt_labels pl WHERE pl.prompt_id = ${prompts.id} ORDER BY pl.label)`,
    // As the API writes them (decision 0270).
    createdAt: isoTimestampText(prompts.createdAt),
    updatedAt: isoTimestampText(prompts.updatedAt),
    // The sort key with microseconds for the cursor: a JS Date would cut them off and skip rows.
    cursorAt: cursorTimestamp(prompts.updatedAt),
    ...promptRightsColumns(viewerId),
    // For `access.delete` (deleting takes the labels): read only where the viewer owns a team
    // prompt, the one case where the answer can matter (a team admin may take protected labels).
    holdsProtectedLabel: sql<boolean>`CASE WHEN ${prompts.ownerUserId} = ${viewerId} AND ${prompts.visibility} = 'team'
      THEN EXISTS (SELECT 1 FROM team_protected_labels tpl WHERE tpl.team_id = ${prompts.teamId} AND (
        (tpl.label = ${PRODUCTION_LABEL} AND ${prompts.currentVersionId} IS NOT NULL)
        OR EXISTS (SELECT 1 FROM prompt_labels hl WHERE hl.prompt_id = ${prompts.id} AND hl.label = tpl.label)))
      ELSE false END`,
  }
}

/**
 * A version's labels: the stored ones, and whether it is its prompt's current version
 * ('production') and its highest ('latest'). Turned into one list by `labelsOf`.
 */
export const labelColumns = {
  // Qualified by hand: drizzle leaves a one-table select's columns unqualified, and inside these
  // subqueries an unqualified name would mean the subquery's own table.
  storedLabels: sql<
    string[]
  >`ARRAY(SELECT l.label FROM prompt_labels l WHERE l.version_id = "prompt_versions"."id" ORDER BY l.label)`,
  isProduction: sql<boolean>`EXISTS (SELECT 1 FROM prompts cp WHERE cp.id = "prompt_versions"."prompt_id" AND cp.current_version_id = "prompt_versions"."id")`,
  isLatest: sql<boolean>`NOT EXISTS (SELECT 1 FROM prompt_versions hv WHERE hv.prompt_id = "prompt_versions"."prompt_id" AND hv.version_number > "prompt_versions"."version_number")`,
}

export function labelsOf(row: { storedLabels: string[] | null; isProduction: boolean; isLatest: boolean }) {
  return versionLabels(row.storedLabels ?? [], { isProduction: row.isProduction, isLatest: row.isLatest })
}

/**
 * The select behind every PromptSummary (lists and detail): the prompt, its current version's
 * number, its version count, and the owner's email when the viewer may know it. Not the body: a
 * list row copies it on demand, and bodies were most of a list page's bytes (decision 0238).
 */
export function selectSummaries(db: Db | Tx, viewerId: Param<string>) {
  return db
    .select(summaryColumns(viewerId))
    .from(prompts)
    .innerJoin(users, eq(users.id, prompts.ownerUserId))
    .leftJoin(promptVersions, eq(promptVersions.id, prompts.currentVersionId))
    .$dynamic()
}

/** The detail's select: a summary with the rest of its current version, in one statement. */
export function selectDetails(db: Db | Tx, viewerId: Param<string>) {
  return db
    .select({
      ...summaryColumns(viewerId),
      currentVersionBody: promptVersions.body,
      currentVersionChangelog: promptVersions.changelog,
      currentVersionCreatedBy: promptVersions.createdByUserId,
      currentVersionCreatedAt: isoTimestampText(promptVersions.createdAt),
      currentVersionConfig: promptVersions.config,
      currentVersionVariables: promptVersions.variables,
      ...labelColumns,
    })
    .from(prompts)
    .innerJoin(users, eq(users.id, prompts.ownerUserId))
    .leftJoin(promptVersions, eq(promptVersions.id, prompts.currentVersionId))
    .$dynamic()
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof selectSummaries>['execute']>>[number]

/** Whose rights an item's `access` describes. */
type Viewer = Pick<Actor, 'id' | 'globalRole' | 'apiKeyId'>

export function toSummary(actor: Viewer, row: SummaryRow): PromptSummary {
  // Field by field, not `{ ...rest }` after a rest destructuring: that copy ran on V8's slow path,
  // 0.2-0.4 ms of a 50-row list page under the prompts benchmark's load.
  return {
    id: row.id,
    ownerUserId: row.ownerUserId,
    ownerEmail: row.ownerEmail,
    ownerDeleted: row.ownerDeleted,
    teamId: row.teamId,
    title: row.title,
    name: row.name,
    type: row.type,
    description: row.description,
    tags: row.tags,
    visibility: row.visibility,
    currentVersionId: row.currentVersionId,
    currentVersionNumber: row.currentVersionNumber,
    versionCount: Number(row.versionCount),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    labels: row.currentVersionId ? [PRODUCTION_LABEL, ...(row.promptLabels ?? [])] : (row.promptLabels ?? []),
    access: promptAccess(actor, row, { holdsProtectedLabel: row.holdsProtectedLabel }),
  }
}

type DetailRow = Awaited<ReturnType<ReturnType<typeof selectDetails>['execute']>>[number]

export function toDetail(actor: Viewer, row: DetailRow): PromptDetail {
  // The summary read from the row itself, not from a rest-destructured copy of it (the copy ran on
  // V8's slow path, as in toSummary); the current version added to that fresh object.
  const detail = toSummary(actor, row) as PromptDetail
  detail.currentVersion =
    row.currentVersionId && row.currentVersionNumber !== null && row.currentVersionCreatedAt
      ? {
          id: row.currentVersionId,
          promptId: row.id,
          versionNumber: row.currentVersionNumber,
          body: row.currentVersionBody ?? '',
          changelog: row.currentVersionChangelog,
          createdByUserId: row.currentVersionCreatedBy,
          createdAt: row.currentVersionCreatedAt,
          config: row.currentVersionConfig ?? {},
          variables: row.currentVersionVariables ?? [],
          labels: labelsOf(row),
        }
      : null
  return detail
}

/** A version's columns as the app reads them: all but the stored search vector (decision 0215). */
export const versionColumns = (() => {
  const { bodySearch: _, ...columns } = getTableColumns(promptVersions)
  return columns
})()

type VersionRow = Omit<typeof promptVersions.$inferSelect, 'bodySearch'> & {
  storedLabels: string[] | null
  isProduction: boolean
  isLatest: boolean
}

export function toVersion(row: VersionRow): PromptVersion {
  const { storedLabels, isProduction, isLatest, createdByApiKeyId: _, ...version } = row
  return {
    ...version,
    createdAt: row.createdAt.toISOString(),
    labels: labelsOf({ storedLabels, isProduction, isLatest }),
  }
}

/** The history's columns: everything but the body, of which only the preview and its length. */
export const versionSummaryColumns = {
  id: promptVersions.id,
  promptId: promptVersions.promptId,
  versionNumber: promptVersions.versionNumber,
  changelog: promptVersions.changelog,
  createdByUserId: promptVersions.createdByUserId,
  createdAt: promptVersions.createdAt,
  config: promptVersions.config,
  variables: promptVersions.variables,
  ...labelColumns,
  // One character more than the preview keeps, so historyPreview knows whether to add '…'.
  head: sql<string>`left(${promptVersions.body}, ${HISTORY_PREVIEW_LENGTH + 1})`,
  bodyLength: sql<number>`char_length(${promptVersions.body})`,
}

type VersionSummaryRow = Omit<VersionSummary, 'preview' | 'createdAt' | 'labels'> & {
  head: string
  createdAt: Date
  storedLabels: string[] | null
  isProduction: boolean
  isLatest: boolean
}

export function toVersionSummary(row: VersionSummaryRow): VersionSummary {
  const { head, storedLabels, isProduction, isLatest, ...rest } = row
  return {
    ...rest,
    labels: labelsOf({ storedLabels, isProduction, isLatest }),
    bodyLength: Number(row.bodyLength),
    preview: historyPreview(head),
    createdAt: row.createdAt.toISOString(),
  }
}
