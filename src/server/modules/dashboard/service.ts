import { type SQL, sql } from 'drizzle-orm'
import type { Actor } from '../../../domain/auth.ts'
import {
  type ContinueItem,
  DASHBOARD,
  type Dashboard,
  lastUtcDays,
  type ModelUsage,
  onboardingChecklist,
  onboardingProgress,
  PULSE_LONG_WINDOW_DAYS,
  PULSE_WINDOW_DAYS,
  type PulseCounts,
  pulseKeys,
  type RankedPrompt,
  STREAK_LOOKBACK_DAYS,
  streakDays,
  teamMilestone,
  teamMilestones,
  teamPulse,
} from '../../../domain/dashboard.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Db } from '../../db/client.ts'
import { isoTimestamp, queryRows, type SqlTimestamp } from '../../db/rows.ts'

const DAY_MS = 86_400_000

/**
 * What one context covers. Personal: the caller's own prompts and conversations and the versions
 * they wrote (the totals: only in the spaces they still reach, `counted`). Team: the team's shared prompts (visibility team, as the Team Prompts list shows
 * them), the versions of those prompts and the team's conversations. Each condition matches one of
 * the list or dashboard indexes (migrations 0003 and 0130).
 */
interface Scope {
  prompts: SQL
  versions: SQL
  conversations: SQL
  /** The rows of `dashboard_counts` (migration 0257) whose totals the context adds up. */
  counted: SQL
  /** The rows of `dashboard_days` (migration 0268) whose days the context adds up. */
  days: SQL
  /** The rows of `dashboard_uses` (migration 0271) of the context's prompts. */
  uses: SQL
  /** The context's model runs: the caller's own, or those on the team's providers. */
  runs: SQL
}

/** The space of the personal prompts in `dashboard_counts`. */
const PERSONAL_SPACE = '00000000-0000-0000-0000-000000000000'

function scopeOf(actor: Actor, teamId: string | undefined): Scope {
  if (!teamId)
    return {
      prompts: sql`p.owner_user_id = ${actor.id}`,
      versions: sql`v.created_by_user_id = ${actor.id}`,
      conversations: sql`c.owner_user_id = ${actor.id}`,
      // The caller's personal space and the teams they are still in: a team they left drops out.
      counted: sql`d.user_id = ${actor.id} AND (d.space_id = ${PERSONAL_SPACE}::uuid
        OR d.space_id IN (SELECT m.team_id FROM team_members m WHERE m.user_id = ${actor.id}))`,
      // What the caller created in any space, as the pulse always counted it.
      days: sql`d.user_id = ${actor.id}`,
      // The prompts the caller owns, in any space, as `prompts` says.
      uses: sql`u.user_id = ${actor.id}`,
      runs: sql`r.user_id = ${actor.id}`,
    }
  return {
    prompts: sql`p.team_id = ${teamId} AND p.visibility = 'team'`,
    versions: sql`v.prompt_id IN (SELECT p.id FROM prompts p WHERE p.team_id = ${teamId} AND p.visibility = 'team')`,
    conversations: sql`c.team_id = ${teamId}`,
    counted: sql`d.space_id = ${teamId}`,
    days: sql`d.space_id = ${teamId}`,
    uses: sql`u.space_id = ${teamId}`,
    runs: sql`r.team_id = ${teamId}`,
  }
}

/** Like the lists: a team the caller is not a member of is not found (its existence not leaked). */
async function requireMembership(db: Db, actor: Actor, teamId: string): Promise<void> {
  const [member] = await queryRows<{ one: number }>(
    db,
    sql`SELECT 1 AS one FROM team_members WHERE team_id = ${teamId} AND user_id = ${actor.id}`,
  )
  if (!member) throw new AppError('not_found', 'teams.notFound')
}

const since = (now: Date, days: number) =>
  sql`${new Date(now.getTime() - days * DAY_MS).toISOString()}::timestamptz`
/** The first of the last `days` UTC days, today included: where a window of whole days starts. */
const firstDayOf = (days: number, now: Date) => sql`${lastUtcDays(days, now)[0]!}::date`

/**
 * The context's counts: created in the last 7 and 14 UTC days (today included), and in all. Both
 * windows come from the per-day counts the writing transactions keep (migration 0268, decision
 * 0268), the totals from the kept totals (migration 0257): a few rows per day of the window, not
 * the window's prompts, versions and conversations.
 */
async function countFigures(db: Db, scope: Scope, now: Date) {
  const week = firstDayOf(PULSE_WINDOW_DAYS, now)
  const windows = pulseKeys.map(
    (
      key,
    ) => sql`coalesce(sum(d.${sql.raw(key)}) FILTER (WHERE d.day >= ${week}), 0)::int AS ${sql.raw(`${key}7`)},
      coalesce(sum(d.${sql.raw(key)}), 0)::int AS ${sql.raw(`${key}14`)}`,
  )
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`SELECT ${sql.join(windows, sql`, `)},
      (SELECT coalesce(sum(d.prompts), 0) FROM dashboard_counts d WHERE ${scope.counted})::int AS prompts_total,
      (SELECT coalesce(sum(d.versions), 0) FROM dashboard_counts d WHERE ${scope.counted})::int AS versions_total
    FROM dashboard_days d WHERE ${scope.days} AND d.day >= ${firstDayOf(PULSE_LONG_WINDOW_DAYS, now)}`,
  )
  const figures = row!
  const counts = (suffix: string): PulseCounts => ({
    prompts: figures[`prompts${suffix}`]!,
    versions: figures[`versions${suffix}`]!,
    conversations: figures[`conversations${suffix}`]!,
  })
  return {
    week: counts('7'),
    fortnight: counts('14'),
    prompts: figures.prompts_total!,
    versions: figures.versions_total!,
  }
}

/**
 * The caller's own onboarding, the same in every context: the dashboard's checklist (first
 * prompt, attach a prompt, join a team, start a conversation) and the 5-step progress. "currentSet"
 * means the caller made an earlier version of one of their prompts current again (Set as Current),
 * the one state no other step implies; each prompt keeps whether it is so (migration 0264).
 */
async function onboardingFlags(db: Db, actor: Actor) {
  const me = actor.id
  const [row] = await queryRows<Record<string, boolean>>(
    db,
    sql`SELECT
      EXISTS (SELECT 1 FROM prompts p WHERE p.owner_user_id = ${me}) AS first_prompt,
      EXISTS (SELECT 1 FROM conversation_message_prompts a WHERE a.attached_by_user_id = ${me}) AS attach_prompt,
      EXISTS (SELECT 1 FROM team_members m WHERE m.user_id = ${me}) AS join_team,
      EXISTS (SELECT 1 FROM conversations c WHERE c.owner_user_id = ${me}) AS start_conversation,
      EXISTS (SELECT 1 FROM prompts p WHERE p.owner_user_id = ${me} AND cardinality(p.tags) > 0) AS tags_added,
      EXISTS (SELECT 1 FROM prompt_versions v WHERE v.created_by_user_id = ${me} AND v.version_number > 1) AS version_created,
      EXISTS (SELECT 1 FROM prompts p WHERE p.owner_user_id = ${me} AND p.current_behind) AS current_set,
      EXISTS (SELECT 1 FROM prompts p WHERE p.owner_user_id = ${me} AND p.visibility = 'team') AS team_visible`,
  )
  const flags = row!
  return {
    checklist: onboardingChecklist({
      first_prompt: flags.first_prompt,
      attach_prompt: flags.attach_prompt,
      join_team: flags.join_team,
      start_conversation: flags.start_conversation,
    }),
    progress: onboardingProgress({
      firstPrompt: flags.first_prompt,
      tagsAdded: flags.tags_added,
      versionCreated: flags.version_created,
      currentSet: flags.current_set,
      teamVisible: flags.team_visible,
    }),
  }
}

/**
 * The UTC days of the caller's current run of activity (a prompt, a version or a conversation
 * created) as far back as a streak looks, from the kept per-day counts (migrations 0268 and 0270:
 * at most one row per day before the last two weeks): one index range, whatever the history;
 * `streakDays` then applies the rule to these days.
 */
async function activeDays(db: Db, actor: Actor, now: Date): Promise<string[]> {
  const rows = await queryRows<{ day: string }>(
    db,
    sql`SELECT to_char(d.day, 'YYYY-MM-DD') AS day FROM dashboard_days d
      WHERE d.user_id = ${actor.id} AND d.day >= ${firstDayOf(STREAK_LOOKBACK_DAYS, now)}
      GROUP BY d.day HAVING sum(d.prompts + d.versions + d.conversations) > 0`,
  )
  return rows.map((row) => row.day)
}

/**
 * The context's new prompts, new versions and conversations on each of the last 7 UTC days, from
 * the kept per-day counts (migration 0268). A prompt's version 1 comes with the prompt, so it is
 * counted once, as the prompt: the days' `revisions` are the versions after the first.
 */
async function weeklyActivity(db: Db, scope: Scope, now: Date) {
  const days = lastUtcDays(PULSE_WINDOW_DAYS, now)
  const rows = await queryRows<{ day: string; count: number }>(
    db,
    sql`SELECT to_char(d.day, 'YYYY-MM-DD') AS day, sum(d.prompts + d.revisions + d.conversations)::int AS count
      FROM dashboard_days d WHERE ${scope.days} AND d.day >= ${firstDayOf(PULSE_WINDOW_DAYS, now)}
      GROUP BY d.day`,
  )
  const byDay = new Map(rows.map((row) => [row.day, row.count]))
  return days.map((day) => ({ day, count: byDay.get(day) ?? 0 }))
}

/** Continue: the 3 most recently changed prompts and conversations of the context. */
async function continueItems(db: Db, scope: Scope): Promise<ContinueItem[]> {
  const limit = DASHBOARD.continueItems
  const rows = await queryRows<{
    kind: ContinueItem['kind']
    id: string
    title: string
    updated_at: SqlTimestamp
  }>(
    db,
    sql`SELECT * FROM (
      (SELECT 'prompt' AS kind, p.id, p.title, p.updated_at FROM prompts p WHERE ${scope.prompts}
        ORDER BY p.updated_at DESC, p.id DESC LIMIT ${limit})
      UNION ALL
      (SELECT 'conversation' AS kind, c.id, c.title, c.updated_at FROM conversations c WHERE ${scope.conversations}
        ORDER BY c.updated_at DESC, c.id DESC LIMIT ${limit})
    ) recent ORDER BY updated_at DESC, id DESC LIMIT ${limit}`,
  )
  return rows.map((row) => ({
    kind: row.kind,
    id: row.id,
    title: row.title,
    updatedAt: isoTimestamp(row.updated_at),
  }))
}

/**
 * Performance: the context's prompts most often attached to conversation messages, all time, from
 * the uses each prompt keeps (migration 0271, decision 0276): the context's rows on one index, not
 * every attachment of the installation. Only the prompts used at least as often as the last one
 * shown are read, for the ties' order (the most recently changed first) and their titles.
 */
async function mostUsed(db: Db, scope: Scope): Promise<RankedPrompt[]> {
  const limit = DASHBOARD.topPrompts
  return queryRows<RankedPrompt>(
    db,
    sql`WITH used AS (
        SELECT u.prompt_id, sum(u.uses)::int AS count FROM dashboard_uses u WHERE ${scope.uses}
        GROUP BY u.prompt_id HAVING sum(u.uses) > 0
      ), last_shown AS (
        SELECT count FROM used ORDER BY count DESC OFFSET ${limit - 1} LIMIT 1
      )
      SELECT p.id, p.title, used.count FROM used JOIN prompts p ON p.id = used.prompt_id
      WHERE ${scope.prompts} AND used.count >= coalesce((SELECT count FROM last_shown), 1)
      ORDER BY used.count DESC, p.updated_at DESC, p.id DESC LIMIT ${limit}`,
  )
}

/**
 * Top Performers: the context's prompts revised most often (more than one version), from the count
 * each prompt keeps (migration 0264): the first rows of an index, not a count of every version.
 */
async function mostRevised(db: Db, scope: Scope): Promise<RankedPrompt[]> {
  return queryRows<RankedPrompt>(
    db,
    sql`SELECT p.id, p.title, p.version_count AS count FROM prompts p
      WHERE ${scope.prompts} AND p.version_count > 1
      ORDER BY p.version_count DESC, p.updated_at DESC, p.id DESC LIMIT ${DASHBOARD.topPrompts}`,
  )
}

/** Model runs and replies of the last 7 days, from `model_runs` (one row per call of a model). */
async function modelUsage(db: Db, scope: Scope, now: Date): Promise<ModelUsage> {
  const [row] = await queryRows<Omit<ModelUsage, 'windowDays'>>(
    db,
    sql`SELECT count(*) FILTER (WHERE r.kind = 'prompt')::int AS runs,
        count(*) FILTER (WHERE r.kind = 'reply')::int AS replies,
        count(*) FILTER (WHERE r.outcome NOT IN ('ok', 'cancelled'))::int AS failed,
        coalesce(sum(r.input_tokens), 0)::float8 AS "inputTokens",
        coalesce(sum(r.output_tokens), 0)::float8 AS "outputTokens"
      FROM model_runs r WHERE ${scope.runs} AND r.created_at >= ${since(now, PULSE_WINDOW_DAYS)}`,
  )
  return { windowDays: PULSE_WINDOW_DAYS, ...row! }
}

/**
 * `GET /api/v1/dashboard`: every figure of one context in one answer. The figures are computed by
 * the database; this function only applies the pure rules of `src/domain/dashboard.ts` to them.
 */
export async function getDashboard(
  { db, reads }: { db: Db; reads: Db },
  actor: Actor,
  teamId: string | undefined,
  now: Date = new Date(),
): Promise<Dashboard> {
  // Membership decides access: the primary. The figures tolerate a replica's lag.
  if (teamId) await requireMembership(db, actor, teamId)
  const scope = scopeOf(actor, teamId)
  // PGlite runs one query at a time anyway; on PostgreSQL the pool runs these side by side.
  const [counts, onboarding, days, weekly, recent, used, revised, usage] = await Promise.all([
    countFigures(reads, scope, now),
    onboardingFlags(reads, actor),
    activeDays(reads, actor, now),
    weeklyActivity(reads, scope, now),
    continueItems(reads, scope),
    mostUsed(reads, scope),
    mostRevised(reads, scope),
    modelUsage(reads, scope, now),
  ])
  return {
    teamId: teamId ?? null,
    continue: recent,
    ...onboarding,
    streak: streakDays(days, now),
    pulse: teamPulse(counts.week, counts.fortnight),
    // 'Team momentum this week' counts the prompts of the same 7-day window as the pulse.
    milestone: teamMilestone(counts.week.prompts),
    milestones: teamMilestones(counts.prompts, counts.versions),
    weekly,
    mostUsed: used,
    mostRevised: revised,
    modelUsage: usage,
  }
}
