import { and, eq, getTableColumns, inArray, or, type SQL } from 'drizzle-orm'
import { AppError } from '../../../domain/errors.ts'
import type { Db, Tx } from '../../db/client.ts'
import { type Param, teamsOf } from '../../db/queries.ts'
import { prompts } from '../../db/schema/index.ts'

/** A prompt's columns as the app reads them: all but the stored search vectors (decision 0236). */
export const promptColumns = (() => {
  const { titleSearch: _, descriptionSearch: __, ...columns } = getTableColumns(prompts)
  return columns
})()

/**
 * Who may see a prompt: its owner, and members of its team when its visibility is 'team'.
 * One definition, written into queries, used by every module that reads prompts.
 */
export function promptVisibleTo(userId: Param<string>): SQL {
  return or(
    eq(prompts.ownerUserId, userId),
    and(eq(prompts.visibility, 'team'), inArray(prompts.teamId, teamsOf(userId))),
  )!
}

/**
 * The prompt if `userId` may see it, else undefined (callers answer 404). `keyShare` (inside a
 * transaction that will reference the prompt, e.g. attach it) holds the row until the commit, so a
 * concurrent delete either runs first (the prompt is not found here) or waits and then removes the
 * new reference with the prompt; without it the reference would fail its foreign key (a 500).
 */
export async function findVisiblePrompt(
  db: Db | Tx,
  userId: string,
  promptId: string,
  options: { keyShare?: boolean } = {},
) {
  const query = db
    .select(promptColumns)
    .from(prompts)
    .where(and(eq(prompts.id, promptId), promptVisibleTo(userId)))
    .$dynamic()
  const [row] = await (options.keyShare ? query.for('key share', { of: prompts }) : query)
  return row
}

export type PromptRow = Omit<typeof prompts.$inferSelect, 'titleSearch' | 'descriptionSearch'>

export const promptNotFound = () => new AppError('not_found', 'prompts.notFound')

/**
 * The prompt, locked for the rest of the transaction, if `userId` may see it; else 404. Every write
 * goes through this lock, so concurrent saves of one prompt take turns: version numbers stay
 * consecutive and a stale editor is detected instead of overwriting.
 */
export async function lockVisiblePrompt(tx: Tx, userId: string, promptId: string): Promise<PromptRow> {
  const [row] = await tx
    .select(promptColumns)
    .from(prompts)
    .where(and(eq(prompts.id, promptId), promptVisibleTo(userId)))
    .for('update', { of: prompts })
  if (!row) throw promptNotFound()
  return row
}
