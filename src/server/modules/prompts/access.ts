import { and, eq, getTableColumns, inArray, or, type SQL, sql } from 'drizzle-orm'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import type { TeamRole } from '../../../domain/permissions.ts'
import type { Db, Tx } from '../../db/client.ts'
import { type Param, teamsOf } from '../../db/queries.ts'
import { prompts } from '../../db/schema/index.ts'

/** A prompt's columns as the app reads them: all but the search copies (decisions 0236 and 0255). */
export const promptColumns = (() => {
  const {
    titleSearch: _,
    descriptionSearch: __,
    currentBody: ___,
    currentBodySearch: ____,
    versionCount: _____,
    currentBehind: ______,
    ...columns
  } = getTableColumns(prompts)
  return columns
})()

/**
 * Whose teams a request reaches: the signed-in user's, or none when a personal API key made it (a
 * personal key reaches the personal space only; a team's prompts need that team's key).
 */
export function teamReachOf(actor: Pick<Actor, 'id' | 'apiKeyId'>): string | null {
  return actor.apiKeyId ? null : actor.id
}

/**
 * Who may see a prompt: its owner while it is private, and the members of its team while it is
 * team-visible (decision 0242). Visibility alone says which space a prompt is in: the database
 * refuses a team on a private prompt. So a former member sees none of the team's prompts, not
 * even those they created. `member` is whose teams count (`teamReachOf`: null for a personal key).
 * One definition, written into queries, used by every module that reads prompts.
 */
export function promptVisibleTo(userId: Param<string>, member: Param<string | null>): SQL {
  return or(
    and(eq(prompts.visibility, 'private'), eq(prompts.ownerUserId, userId)),
    and(eq(prompts.visibility, 'team'), inArray(prompts.teamId, teamsOf(member as Param<string>))),
  )!
}

/**
 * The prompts `userId` owns and still sees: the personal ones, and the team ones while a member of
 * their team (with `member` as in `promptVisibleTo`). The owner's list and the data export read this.
 */
export function promptOwnedBy(userId: Param<string>, member: Param<string | null>): SQL {
  return and(eq(prompts.ownerUserId, userId), promptVisibleTo(userId, member))!
}

/**
 * What `promptAccess` needs beyond the row: the caller's role in the prompt's team and whether the
 * owner is still a member of it. Qualified by hand: in a one-table select drizzle leaves columns
 * unqualified, and inside these subqueries a bare `team_id` would mean team_members' own.
 */
export function promptRightsColumns(viewer: Param<string>) {
  return {
    viewerTeamRole: sql<TeamRole | null>`(SELECT r.role FROM team_members r
      WHERE r.team_id = "prompts"."team_id" AND r.user_id = ${viewer})`,
    ownerIsMember: sql<boolean>`EXISTS (SELECT 1 FROM team_members o
      WHERE o.team_id = "prompts"."team_id" AND o.user_id = "prompts"."owner_user_id")`,
  }
}

/** A prompt's columns with the caller's rights columns (`promptRightsColumns`). */
export const promptWithRights = (viewer: Param<string>) => ({
  ...promptColumns,
  ...promptRightsColumns(viewer),
})

/**
 * The prompt if `actor` may see it, else undefined (callers answer 404). `keyShare` (inside a
 * transaction that will reference the prompt, e.g. attach it) holds the row until the commit, so a
 * concurrent delete either runs first (the prompt is not found here) or waits and then removes the
 * new reference with the prompt; without it the reference would fail its foreign key (a 500).
 */
export async function findVisiblePrompt(
  db: Db | Tx,
  actor: Pick<Actor, 'id' | 'apiKeyId'>,
  promptId: string,
  options: { keyShare?: boolean } = {},
) {
  const query = db
    .select(promptWithRights(actor.id))
    .from(prompts)
    .where(and(eq(prompts.id, promptId), promptVisibleTo(actor.id, teamReachOf(actor))))
    .$dynamic()
  const [row] = await (options.keyShare ? query.for('key share', { of: prompts }) : query)
  return row
}

export type PromptRow = Omit<
  typeof prompts.$inferSelect,
  'titleSearch' | 'descriptionSearch' | 'currentBody' | 'currentBodySearch' | 'versionCount' | 'currentBehind'
>

/** The rights columns' values (`promptRightsColumns`). */
export interface PromptRights {
  viewerTeamRole: TeamRole | null
  ownerIsMember: boolean
}

export const promptNotFound = () => new AppError('not_found', 'prompts.notFound')

/**
 * The prompt with the actor's rights, locked for the rest of the transaction, if `actor` may see
 * it; else 404. Every write goes through this lock, so concurrent saves of one prompt take turns: version numbers stay
 * consecutive and a stale editor is detected instead of overwriting.
 */
export async function lockVisiblePrompt(
  tx: Tx,
  actor: Pick<Actor, 'id' | 'apiKeyId'>,
  promptId: string,
): Promise<PromptRow & PromptRights> {
  const [row] = await tx
    .select(promptWithRights(actor.id))
    .from(prompts)
    .where(and(eq(prompts.id, promptId), promptVisibleTo(actor.id, teamReachOf(actor))))
    .for('update', { of: prompts })
  if (!row) throw promptNotFound()
  return row
}
