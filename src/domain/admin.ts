import { z } from 'zod'
import { replicaStatusSchema } from './api/system.ts'
import { diagnosticCheckSchema, globalRoles } from './auth.ts'
import { cursorParam, limitParam } from './list-params.ts'
import { planIds, planStates } from './plans.ts'

/**
 * The global admin area: live figures, the user list with the global role and plan,
 * system health and the server-made build report. Framework-free: the server answers these
 * shapes, the web app reads them.
 */

/** The window of "active users" and of the acquisition chart (the spec's 720 hours). */
export const SYSTEM_STATS_WINDOW_HOURS = 720
export const SYSTEM_STATS_WINDOW_DAYS = SYSTEM_STATS_WINDOW_HOURS / 24
/** The acquisition panel's short figure: sign-ups of the last 7 days. */
export const ACQUISITION_RECENT_DAYS = 7
/** The admin user list's page sizes. */
export const ADMIN_USERS_PAGE = { default: 50, max: 100 } as const
/** Build reports kept (the spec's report history of 10). */
export const BUILD_REPORT_HISTORY = 10

export const acquisitionDaySchema = z.object({
  /** The UTC day, `YYYY-MM-DD`. */
  date: z.string(),
  count: z.number().int(),
})
export type AcquisitionDay = z.infer<typeof acquisitionDaySchema>

/** GET /api/v1/admin/stats: the four cards and the acquisition panel, counted now. */
export const systemStatsSchema = z.object({
  generatedAt: z.string(),
  windowHours: z.number().int(),
  totalUsers: z.number().int(),
  totalTeams: z.number().int(),
  totalPrompts: z.number().int(),
  /** Users who signed in or wrote anything (prompt, version, conversation, message) in the window. */
  activeUsers: z.number().int(),
  userAcquisition: z.object({
    total: z.number().int(),
    averagePerDay: z.number(),
    lastDays: z.number().int(),
    lastDaysCount: z.number().int(),
    /** One entry per UTC day of the window, oldest first, days without sign-ups included. */
    days: z.array(acquisitionDaySchema),
  }),
})
export type SystemStats = z.infer<typeof systemStatsSchema>

/**
 * The acquisition figures from sign-ups per UTC day (days without any may be missing): every day of
 * the window, oldest first, ending `today`; the total, the average per day (one decimal) and the
 * last `ACQUISITION_RECENT_DAYS` days' sum.
 */
export function acquisitionOf(
  counts: readonly AcquisitionDay[],
  today: Date,
  days = SYSTEM_STATS_WINDOW_DAYS,
): SystemStats['userAcquisition'] {
  const byDate = new Map(counts.map((day) => [day.date, day.count]))
  const end = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())
  const series: AcquisitionDay[] = []
  for (let i = days - 1; i >= 0; i--) {
    const date = new Date(end - i * 86_400_000).toISOString().slice(0, 10)
    series.push({ date, count: byDate.get(date) ?? 0 })
  }
  const total = series.reduce((sum, day) => sum + day.count, 0)
  const recent = series.slice(-ACQUISITION_RECENT_DAYS).reduce((sum, day) => sum + day.count, 0)
  return {
    total,
    averagePerDay: Math.round((total / days) * 10) / 10,
    lastDays: ACQUISITION_RECENT_DAYS,
    lastDaysCount: recent,
    days: series,
  }
}

export const adminUsersQuery = z.object({
  /** Part of an email address, case-insensitive (one or two characters: its start). */
  search: z
    .string({ error: 'error.invalidValue' })
    .trim()
    .toLowerCase()
    .max(254, 'error.invalidValue')
    .optional(),
  cursor: cursorParam.optional(),
  limit: limitParam(ADMIN_USERS_PAGE),
})

/** The spec's admin user list item, with the plan of the user's personal space. */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  globalRole: z.enum(globalRoles),
  /** The installation's first account. */
  isFirstUser: z.boolean(),
  teams: z.array(z.object({ id: z.string(), name: z.string(), role: z.enum(['admin', 'member']) })),
  createdAt: z.string(),
  plan: z.object({ state: z.enum(planStates), plan: z.enum(planIds).nullable() }),
})
export type AdminUser = z.infer<typeof adminUserSchema>

export const adminUsersPageSchema = z.object({
  items: z.array(adminUserSchema),
  nextCursor: z.string().nullable(),
  /** Every account and every global admin (not only the ones matching the search). */
  counts: z.object({ users: z.number().int(), globalAdmins: z.number().int() }),
})
export type AdminUsersPage = z.infer<typeof adminUsersPageSchema>

/** The admin team list's page sizes, and how many of a team's admins a row names. */
export const ADMIN_TEAMS_PAGE = { default: 50, max: 100 } as const
export const ADMIN_TEAM_ADMINS_SHOWN = 3

export const adminTeamsQuery = z.object({
  /** Part of the team's name, case-insensitive. */
  search: z
    .string({ error: 'error.invalidValue' })
    .trim()
    .toLowerCase()
    .max(100, 'error.invalidValue')
    .optional(),
  cursor: cursorParam.optional(),
  limit: limitParam(ADMIN_TEAMS_PAGE),
})

/** A team as the global admin lists it: its size, admins, plan and work, counted for this row. */
export const adminTeamSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  memberCount: z.number().int(),
  adminCount: z.number().int(),
  /** The first `ADMIN_TEAM_ADMINS_SHOWN` admins, in the order they became members. */
  admins: z.array(z.object({ id: z.string(), email: z.string(), name: z.string() })),
  /** Prompts shared with the team, and the team's conversations. */
  promptCount: z.number().int(),
  conversationCount: z.number().int(),
  plan: z.object({ state: z.enum(planStates), plan: z.enum(planIds).nullable() }),
})
export type AdminTeam = z.infer<typeof adminTeamSchema>

export const adminTeamsPageSchema = z.object({
  items: z.array(adminTeamSchema),
  nextCursor: z.string().nullable(),
  /** Every team (not only the ones matching the search). */
  counts: z.object({ teams: z.number().int() }),
})
export type AdminTeamsPage = z.infer<typeof adminTeamsPageSchema>

/** Grant or revoke the global role. Demoting yourself needs `confirmSelf: true`. */
export const setGlobalRoleInput = z.object({
  role: z.enum(globalRoles, { error: 'admin.roleInvalid' }),
  confirmSelf: z.boolean({ error: 'error.invalidValue' }).optional().default(false),
})
export type SetGlobalRoleInput = z.input<typeof setGlobalRoleInput>

/** GET /api/v1/admin/health: what the server sees now. */
export const systemHealthSchema = z.object({
  checkedAt: z.string(),
  database: z.object({
    kind: z.string(),
    version: z.string(),
    latencyMs: z.number(),
    /** The read replicas (empty without DATABASE_READ_URL). */
    replicas: z.array(replicaStatusSchema),
  }),
  migrations: z.object({
    applied: z.number().int(),
    known: z.number().int(),
    latest: z.string().nullable(),
    pending: z.array(z.string()),
  }),
  mail: z.object({
    transport: z.enum(['smtp', 'log']),
    from: z.string(),
    pending: z.number().int(),
    oldestPendingAt: z.string().nullable(),
    failed: z.number().int(),
    failedLast24h: z.number().int(),
  }),
  process: z.object({
    uptimeSeconds: z.number(),
    startedAt: z.string(),
    nodeVersion: z.string(),
    memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number(), heapTotalBytes: z.number() }),
  }),
  app: z.object({ version: z.string(), commit: z.string().nullable() }),
})
export type SystemHealth = z.infer<typeof systemHealthSchema>

// ---- Diagnostics probes -----------------------------------------------------------------------

export const adminProbesQuery = z.object({
  teamId: z.uuid({ error: 'teams.notFound' }).optional(),
})

/** The diagnostics pages' live probes: each with its result and latency. */
export const adminProbesSchema = z.object({
  checkedAt: z.string(),
  conversationCount: diagnosticCheckSchema.extend({ count: z.number().int().nullable() }),
  /** `error` is `no_team` or `team_not_found` when there was no team to look up. */
  teamMembers: diagnosticCheckSchema.extend({
    /** The team looked up; null when the caller belongs to no team and named none. */
    teamId: z.string().nullable(),
    teamName: z.string().nullable(),
    members: z.array(z.object({ userId: z.string(), email: z.string(), role: z.enum(['admin', 'member']) })),
  }),
})
export type AdminProbes = z.infer<typeof adminProbesSchema>

export const codeSignInProbeSchema = diagnosticCheckSchema.extend({ email: z.string() })
export type CodeSignInProbe = z.infer<typeof codeSignInProbeSchema>

// ---- Build report ----------------------------------------------------------------------------

export const buildItemStatuses = ['completed', 'partial', 'missing'] as const
export type BuildItemStatus = (typeof buildItemStatuses)[number]
export const buildPriorities = ['high', 'medium', 'low'] as const
export type BuildPriority = (typeof buildPriorities)[number]
export const buildOverallStatuses = ['healthy', 'warning', 'critical'] as const
export type BuildOverallStatus = (typeof buildOverallStatuses)[number]

export const buildItemSchema = z.object({
  /** A stable key (`database.reachable`); the web app words it. */
  key: z.string(),
  status: z.enum(buildItemStatuses),
  priority: z.enum(buildPriorities),
  /** What the check found, in plain words or figures (a version, a count, a latency). */
  evidence: z.string(),
})
export type BuildItem = z.infer<typeof buildItemSchema>

export const buildAreaSchema = z.object({ area: z.string(), items: z.array(buildItemSchema) })
export type BuildArea = z.infer<typeof buildAreaSchema>

export const buildSummarySchema = z.object({
  total: z.number().int(),
  completed: z.number().int(),
  partial: z.number().int(),
  missing: z.number().int(),
  highPriorityMissing: z.number().int(),
})
export type BuildSummary = z.infer<typeof buildSummarySchema>

export const buildReportSchema = z.object({
  generatedAt: z.string(),
  version: z.string(),
  commit: z.string().nullable(),
  uptimeSeconds: z.number(),
  failedSignInsLast24h: z.number().int(),
  overallStatus: z.enum(buildOverallStatuses),
  summary: buildSummarySchema,
  areas: z.array(buildAreaSchema),
})
export type BuildReport = z.infer<typeof buildReportSchema>

export const savedBuildReportSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  version: z.string(),
  commit: z.string().nullable(),
  overallStatus: z.enum(buildOverallStatuses),
  summary: buildSummarySchema,
})
export type SavedBuildReport = z.infer<typeof savedBuildReportSchema>

/** GET /api/v1/admin/build-status: the report made now and the 10 latest saved ones. */
export const buildStatusSchema = z.object({
  current: buildReportSchema,
  /** Whether this request saved `current` (its counts differ from the latest saved report). */
  saved: z.boolean(),
  history: z.array(savedBuildReportSchema),
})
export type BuildStatus = z.infer<typeof buildStatusSchema>

export function summarize(areas: readonly BuildArea[]): BuildSummary {
  const items = areas.flatMap((area) => area.items)
  return {
    total: items.length,
    completed: items.filter((item) => item.status === 'completed').length,
    partial: items.filter((item) => item.status === 'partial').length,
    missing: items.filter((item) => item.status === 'missing').length,
    highPriorityMissing: items.filter((item) => item.status === 'missing' && item.priority === 'high').length,
  }
}

/** Critical when more than 2 high-priority items are missing; warning under 70% completed; else healthy. */
export function overallStatusOf(summary: BuildSummary): BuildOverallStatus {
  if (summary.highPriorityMissing > 2) return 'critical'
  if (summary.total > 0 && summary.completed / summary.total < 0.7) return 'warning'
  return 'healthy'
}

/** Whether two summaries count the same (a new report is saved only when they do not). */
export function sameCounts(a: BuildSummary, b: BuildSummary): boolean {
  return (
    a.total === b.total &&
    a.completed === b.completed &&
    a.partial === b.partial &&
    a.missing === b.missing &&
    a.highPriorityMissing === b.highPriorityMissing
  )
}

/** Texts the Markdown export needs, in the reader's language (the web app passes its catalog's). */
export interface BuildReportWords {
  title: string
  generated: string
  version: string
  commit: string
  uptime: string
  failedSignIns: string
  overall: string
  summary: string
  criterion: string
  status: string
  priority: string
  evidence: string
  statusOf: (status: BuildItemStatus) => string
  priorityOf: (priority: BuildPriority) => string
  overallOf: (status: BuildOverallStatus) => string
  areaOf: (area: string) => string
  itemOf: (key: string) => string
  uptimeOf: (seconds: number) => string
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ')

/** Export Report: the report as a Markdown document. */
export function buildReportMarkdown(report: BuildReport, w: BuildReportWords): string {
  const s = report.summary
  const lines = [
    `# ${w.title}`,
    '',
    `- ${w.generated}: ${report.generatedAt}`,
    `- ${w.version}: ${report.version}`,
    `- ${w.commit}: ${report.commit ?? '—'}`,
    `- ${w.uptime}: ${w.uptimeOf(report.uptimeSeconds)}`,
    `- ${w.failedSignIns}: ${report.failedSignInsLast24h}`,
    `- ${w.overall}: ${w.overallOf(report.overallStatus)}`,
    `- ${w.summary}: ${w.statusOf('completed')} ${s.completed}, ${w.statusOf('partial')} ${s.partial}, ${w.statusOf('missing')} ${s.missing} / ${s.total}`,
  ]
  for (const area of report.areas) {
    lines.push('', `## ${w.areaOf(area.area)}`, '')
    lines.push(
      `| ${w.criterion} | ${w.status} | ${w.priority} | ${w.evidence} |`,
      '| --- | --- | --- | --- |',
    )
    for (const item of area.items) {
      lines.push(
        `| ${cell(w.itemOf(item.key))} | ${w.statusOf(item.status)} | ${w.priorityOf(item.priority)} | ${cell(item.evidence)} |`,
      )
    }
  }
  return `${lines.join('\n')}\n`
}
