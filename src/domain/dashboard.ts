import { z } from 'zod'

/**
 * The working dashboard's rules (onboarding checklist, team milestone, team pulse, team
 * milestones, streak): pure functions over figures the server computes in SQL, and
 * the schemas of `GET /api/v1/dashboard`.
 */

export const DASHBOARD = {
  recentPrompts: 5,
  recentConversations: 5,
  continueItems: 3,
  teamPrompts: 5,
  /** Performance and Top Performers: prompts listed in each card. */
  topPrompts: 5,
} as const

/**
 * The pulse's window: the last 7 UTC days, today included (the days of the weekly chart), whole
 * days, so that the figures can be read from per-day counts.
 */
export const PULSE_WINDOW_DAYS = 7
/** The previous week is the 14-day figure minus the 7-day figure. */
export const PULSE_LONG_WINDOW_DAYS = 14
export const TEAM_MILESTONE = { goal: 5, windowDays: 7 } as const
export const MILESTONE_THRESHOLDS = { prompts: [5, 10, 25], versions: [10, 25, 50] } as const
/** How far back the streak looks; a streak longer than this shows as this many days. */
export const STREAK_LOOKBACK_DAYS = 400

const DAY_MS = 86_400_000

/** A UTC calendar day as `YYYY-MM-DD`. */
export function utcDay(value: Date | string): string {
  return new Date(value).toISOString().slice(0, 10)
}

function previousDay(day: string): string {
  return utcDay(new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS))
}

/**
 * Streak: consecutive UTC days with any activity, counted back from today, or from yesterday
 * when nothing happened today yet; 0 otherwise. `days` are the UTC days with activity, any order.
 */
export function streakDays(days: Iterable<string>, now: Date = new Date()): number {
  const active = new Set(days)
  const today = utcDay(now)
  let day = active.has(today) ? today : previousDay(today)
  let streak = 0
  while (active.has(day)) {
    streak += 1
    day = previousDay(day)
  }
  return streak
}

/** The last `count` UTC days, oldest first, ending today (the weekly strip's columns). */
export function lastUtcDays(count: number, now: Date = new Date()): string[] {
  const days: string[] = []
  let day = utcDay(now)
  for (let index = 0; index < count; index += 1) {
    days.unshift(day)
    day = previousDay(day)
  }
  return days
}

export const pulseCountsSchema = z.object({
  prompts: z.number().int(),
  versions: z.number().int(),
  conversations: z.number().int(),
})
export type PulseCounts = z.infer<typeof pulseCountsSchema>
export const pulseKeys = ['prompts', 'versions', 'conversations'] as const

export const pulseSchema = z.object({
  windowDays: z.number().int(),
  current: pulseCountsSchema,
  previous: pulseCountsSchema,
  change: pulseCountsSchema,
})
export type Pulse = z.infer<typeof pulseSchema>

/**
 * Team pulse from the 7-day and 14-day figures: this week, the previous week (14 minus 7) and
 * the change between them.
 */
export function teamPulse(week: PulseCounts, fortnight: PulseCounts): Pulse {
  const previous = Object.fromEntries(
    pulseKeys.map((key) => [key, Math.max(0, fortnight[key] - week[key])]),
  ) as PulseCounts
  const change = Object.fromEntries(pulseKeys.map((key) => [key, week[key] - previous[key]])) as PulseCounts
  return { windowDays: PULSE_WINDOW_DAYS, current: week, previous, change }
}

export const milestoneKinds = ['prompts', 'versions'] as const
export const milestoneSchema = z.object({ kind: z.enum(milestoneKinds), threshold: z.number().int() })
export type Milestone = z.infer<typeof milestoneSchema>
export const milestoneKey = (milestone: Milestone) => `${milestone.kind}${milestone.threshold}`

export const milestonesSchema = z.object({
  totalPrompts: z.number().int(),
  totalVersions: z.number().int(),
  /** Team milestones' hit flags: prompts5, prompts10, prompts25, versions10, versions25, versions50. */
  hit: z.record(z.string(), z.boolean()),
})
export type Milestones = z.infer<typeof milestonesSchema>

/** Team milestones: the totals and which thresholds they reach. */
export function teamMilestones(totalPrompts: number, totalVersions: number): Milestones {
  const hit: Record<string, boolean> = {}
  for (const threshold of MILESTONE_THRESHOLDS.prompts) hit[`prompts${threshold}`] = totalPrompts >= threshold
  for (const threshold of MILESTONE_THRESHOLDS.versions)
    hit[`versions${threshold}`] = totalVersions >= threshold
  return { totalPrompts, totalVersions, hit }
}

/**
 * Milestone banner: of the achieved milestones not dismissed, only the highest threshold shows
 * (the larger number; a tie prefers versions, the rarer kind). Null when none is left.
 */
export function bannerMilestone(milestones: Milestones, dismissed: ReadonlySet<string>): Milestone | null {
  let best: Milestone | null = null
  for (const kind of milestoneKinds) {
    for (const threshold of MILESTONE_THRESHOLDS[kind]) {
      const candidate = { kind, threshold }
      if (!milestones.hit[milestoneKey(candidate)] || dismissed.has(milestoneKey(candidate))) continue
      if (!best || threshold >= best.threshold) best = candidate
    }
  }
  return best
}

export const teamMilestoneSchema = z.object({
  current: z.number().int(),
  goal: z.number().int(),
  windowDays: z.number().int(),
  reached: z.boolean(),
})
export type TeamMilestone = z.infer<typeof teamMilestoneSchema>

/** Team milestone 'Team momentum this week': prompts created in 7 days against the goal of 5. */
export function teamMilestone(promptsThisWeek: number): TeamMilestone {
  return {
    current: promptsThisWeek,
    goal: TEAM_MILESTONE.goal,
    windowDays: TEAM_MILESTONE.windowDays,
    reached: promptsThisWeek >= TEAM_MILESTONE.goal,
  }
}

/** Onboarding checklist (dashboard) and onboarding progress (5 steps). */
export const checklistKeys = ['first_prompt', 'attach_prompt', 'join_team', 'start_conversation'] as const
export type ChecklistKey = (typeof checklistKeys)[number]
export const progressKeys = [
  'firstPrompt',
  'tagsAdded',
  'versionCreated',
  'currentSet',
  'teamVisible',
] as const
export type ProgressKey = (typeof progressKeys)[number]

function checklistOf<K extends string>(keys: readonly K[], done: Partial<Record<K, boolean>>) {
  const items = keys.map((key) => ({ key, done: done[key] === true }))
  const finished = items.filter((item) => item.done).length
  return { items, percent: Math.round((finished / keys.length) * 100) }
}

/** percent = done / 4, rounded to a whole percent. */
export function onboardingChecklist(done: Partial<Record<ChecklistKey, boolean>>) {
  return checklistOf(checklistKeys, done)
}

/** percent = done / 5, rounded to a whole percent. */
export function onboardingProgress(done: Partial<Record<ProgressKey, boolean>>) {
  return checklistOf(progressKeys, done)
}

export const checklistSchema = z.object({
  items: z.array(z.object({ key: z.enum(checklistKeys), done: z.boolean() })),
  percent: z.number().int(),
})
export const progressSchema = z.object({
  items: z.array(z.object({ key: z.enum(progressKeys), done: z.boolean() })),
  percent: z.number().int(),
})

export const dashboardQuery = z.object({
  teamId: z.uuid({ error: 'teams.notFound' }).optional(),
})
export type DashboardQuery = z.input<typeof dashboardQuery>

export const continueItemSchema = z.object({
  kind: z.enum(['prompt', 'conversation']),
  id: z.uuid(),
  title: z.string(),
  updatedAt: z.string(),
})
export type ContinueItem = z.infer<typeof continueItemSchema>

export const rankedPromptSchema = z.object({ id: z.uuid(), title: z.string(), count: z.number().int() })
export type RankedPrompt = z.infer<typeof rankedPromptSchema>

export const activityDaySchema = z.object({ day: z.string(), count: z.number().int() })

/** Usage of models in the context's last `windowDays`: prompt runs, generated replies, tokens. */
export const modelUsageSchema = z.object({
  windowDays: z.number().int(),
  runs: z.number().int(),
  replies: z.number().int(),
  /** Runs and replies the provider failed (refused, limited, timed out). */
  failed: z.number().int(),
  inputTokens: z.number().int(),
  outputTokens: z.number().int(),
})
export type ModelUsage = z.infer<typeof modelUsageSchema>

/** `GET /api/v1/dashboard`: every figure of one context (personal, or one of the caller's teams). */
export const dashboardSchema = z.object({
  teamId: z.uuid().nullable(),
  /** The 3 most recently changed prompts and conversations of the context. */
  continue: z.array(continueItemSchema),
  /** The caller's own onboarding (the same in every context). */
  checklist: checklistSchema,
  progress: progressSchema,
  /** The caller's own streak in days (0 hides the badge). */
  streak: z.number().int(),
  /** The context's activity: the caller's own work (personal) or the team's shared work. */
  pulse: pulseSchema,
  milestone: teamMilestoneSchema,
  milestones: milestonesSchema,
  /** The last 7 UTC days, oldest first: prompts, versions and conversations created each day. */
  weekly: z.array(activityDaySchema),
  /** Performance: the prompts most attached to conversation messages. */
  mostUsed: z.array(rankedPromptSchema),
  /** Top Performers: the prompts with the most versions. */
  mostRevised: z.array(rankedPromptSchema),
  /** Personal: the caller's own runs; team: the runs on the team's model providers. */
  modelUsage: modelUsageSchema,
})
export type Dashboard = z.infer<typeof dashboardSchema>
