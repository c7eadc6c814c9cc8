import { and, asc, eq, isNotNull, or, type SQL, sql } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import {
  LATEST_LABEL,
  PRODUCTION_LABEL,
  type PromptType,
  parsePromptBody,
} from '../../../domain/prompt-names.ts'
import type { Variables } from '../../../domain/prompt-variables.ts'
import type { Space } from '../../../domain/spaces.ts'
import type { Db } from '../../db/client.ts'
import { containsText, hasAllTags } from '../../db/queries.ts'
import { prompts, promptVersions } from '../../db/schema/index.ts'
import { inSpace, type PromptRow, promptColumns } from '../prompts/index.ts'

/**
 * The reads of one API key's space that the MCP server needs beyond the shared ones: its prompts by
 * name, a page at a time, each with its production version's body and declared variables (the
 * arguments `prompts/list` offers). Names are unique in a space, so the name alone is the cursor.
 */
export interface SpacePromptItem {
  name: string
  title: string
  description: string | null
  type: PromptType
  tags: string[]
  /** Every label the prompt's versions hold, `production` and `latest` included, sorted. */
  labels: string[]
  /** The production version; null when no version holds the label. */
  production: {
    version: number
    body: string
    parsedBody: ReturnType<typeof parsePromptBody>
    variables: Variables
  } | null
}

export interface SpacePromptFilters {
  search?: string
  tag?: string
  label?: string
  /** Only prompts that have a production version (what `prompts/get` serves by default). */
  productionOnly?: boolean
}

const invalidCursor = () =>
  new AppError('validation', 'error.invalidCursor', { fields: { cursor: 'error.invalidCursor' } })

/** The cursor: the page's last name, base64url (opaque to clients, as MCP asks). */
export const cursorOfName = (name: string) => Buffer.from(name, 'utf8').toString('base64url')

function nameOfCursor(cursor: string): string {
  const name = Buffer.from(cursor, 'base64url').toString('utf8')
  if (name === '' || cursorOfName(name) !== cursor) throw invalidCursor()
  return name
}

/** Which prompts hold `label` on one of their versions (latest: every prompt with a version). */
function holdsLabel(label: string): SQL {
  if (label === PRODUCTION_LABEL) return isNotNull(prompts.currentVersionId)
  if (label === LATEST_LABEL)
    return sql`EXISTS (SELECT 1 FROM prompt_versions x WHERE x.prompt_id = ${prompts.id})`
  return sql`EXISTS (SELECT 1 FROM prompt_labels l WHERE l.prompt_id = ${prompts.id} AND l.label = ${label})`
}

/** One page of the space's prompts by name (`limit` of them, and the cursor of the next page). */
export async function listSpacePrompts(
  db: Db,
  space: Space,
  filters: SpacePromptFilters,
  page: { cursor?: string; limit: number },
): Promise<{ items: SpacePromptItem[]; nextCursor: string | null }> {
  const after = page.cursor !== undefined ? nameOfCursor(page.cursor) : undefined
  const rows = await db
    .select({
      name: prompts.name,
      title: prompts.title,
      description: prompts.description,
      type: prompts.type,
      tags: prompts.tags,
      storedLabels: sql<
        string[]
      >`ARRAY(SELECT l.label FROM prompt_labels l WHERE l.prompt_id = ${prompts.id})`,
      version: promptVersions.versionNumber,
      body: promptVersions.body,
      variables: promptVersions.variables,
    })
    .from(prompts)
    .leftJoin(promptVersions, eq(promptVersions.id, prompts.currentVersionId))
    .where(
      and(
        inSpace(space),
        filters.productionOnly ? isNotNull(prompts.currentVersionId) : undefined,
        filters.search
          ? or(
              containsText(prompts.name, filters.search),
              containsText(prompts.title, filters.search),
              containsText(prompts.description, filters.search),
            )
          : undefined,
        filters.tag !== undefined ? hasAllTags(prompts.tags, [filters.tag]) : undefined,
        filters.label !== undefined ? holdsLabel(filters.label) : undefined,
        after !== undefined ? sql`${prompts.name} COLLATE "C" > ${after}` : undefined,
      ),
    )
    // Byte order, so the cursor's `>` and the order agree whatever the database's collation.
    .orderBy(asc(sql`${prompts.name} COLLATE "C"`))
    .limit(page.limit + 1)
  const items = rows.slice(0, page.limit).map(
    (row): SpacePromptItem => ({
      name: row.name,
      title: row.title,
      description: row.description,
      type: row.type,
      tags: row.tags,
      labels: [...row.storedLabels, ...(row.version !== null ? [PRODUCTION_LABEL] : []), LATEST_LABEL].sort(),
      production:
        row.version !== null && row.body !== null
          ? {
              version: row.version,
              body: row.body,
              parsedBody: parsePromptBody(row.type, row.body),
              variables: row.variables ?? [],
            }
          : null,
    }),
  )
  const last = items.at(-1)
  return { items, nextCursor: rows.length > page.limit && last ? cursorOfName(last.name) : null }
}

/** The space's prompt of that name, as the shared prompt functions take it; undefined when none. */
export async function findSpacePrompt(db: Db, space: Space, name: string): Promise<PromptRow | undefined> {
  const [row] = await db
    .select(promptColumns)
    .from(prompts)
    .where(and(inSpace(space), eq(prompts.name, name)))
  return row
}
