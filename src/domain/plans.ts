import { z } from 'zod'
import { TRIAL_DAYS } from './constants.ts'
import type { MessageKey } from './messages/index.ts'

/**
 * Plans, trials and entitlements. One table of plans read by the server
 * (the gates, inside each write's transaction) and by the web app (billing page, banner, paywall),
 * and the rules as pure functions of it. The spec's values are placeholders; these are ours.
 */

/** A subject holds a plan: a user's personal space or a team. */
export const planContexts = ['personal', 'team'] as const
export type PlanContext = (typeof planContexts)[number]

export const planIds = ['trial', 'free', 'pro', 'team'] as const
export type PlanId = (typeof planIds)[number]
/** The plans a subject may choose (the trial is given, never chosen). */
export const choosablePlanIds = ['free', 'pro', 'team'] as const
export type ChoosablePlanId = (typeof choosablePlanIds)[number]

export interface PlanLimits {
  maxPrompts: number
  maxTeamMembers: number
  apiAccess: boolean
  webhooks: boolean
}

export interface PlanDefinition {
  id: PlanId
  /** Free and the trial are self-service; paid plans go through the billing provider. */
  paid: boolean
  /** The limits in each context the plan is offered for (absent: not offered there). */
  limits: Partial<Record<PlanContext, PlanLimits>>
}

/** THE plan table. */
export const PLANS: Record<PlanId, PlanDefinition> = {
  trial: {
    id: 'trial',
    paid: false,
    limits: {
      personal: { maxPrompts: 10, maxTeamMembers: 1, apiAccess: true, webhooks: true },
      team: { maxPrompts: 50, maxTeamMembers: 5, apiAccess: true, webhooks: true },
    },
  },
  free: {
    id: 'free',
    paid: false,
    limits: {
      personal: { maxPrompts: 10, maxTeamMembers: 1, apiAccess: false, webhooks: false },
      team: { maxPrompts: 50, maxTeamMembers: 5, apiAccess: false, webhooks: false },
    },
  },
  pro: {
    id: 'pro',
    paid: true,
    limits: { personal: { maxPrompts: 1000, maxTeamMembers: 1, apiAccess: true, webhooks: true } },
  },
  team: {
    id: 'team',
    paid: true,
    limits: { team: { maxPrompts: 10_000, maxTeamMembers: 50, apiAccess: true, webhooks: true } },
  },
}

/** The plans offered in a context, in the order the billing page shows them. */
export function plansFor(context: PlanContext): PlanDefinition[] {
  return (['free', 'pro', 'team'] as const).map((id) => PLANS[id]).filter((plan) => plan.limits[context])
}

export function isPlanOffered(plan: PlanId, context: PlanContext): boolean {
  return PLANS[plan].limits[context] !== undefined
}

/** The banner and the usage bars warn from this share of a limit on. */
export const USAGE_WARNING_SHARE = 0.8
const DAY_MS = 24 * 60 * 60 * 1000

/**
 * - trial: days left > 0 and no plan chosen;
 * - payment_required: the trial is over and no plan was chosen (reading works, writing does not);
 * - active: a plan was chosen (or granted);
 * - unlimited: plans are off for this installation (PLANS=off).
 */
export const planStates = ['trial', 'payment_required', 'active', 'unlimited'] as const

/**
 * Whole days left in a trial that runs TRIAL_DAYS × 24 h from the subject's creation (the
 * account's or the team's, not "from now" as the spec says). Counted on instants (UTC), rounded up, so
 * it reads 14 right after sign-up and 1 during the last 24 hours; 0 from the end on.
 */
export function trialDaysLeft(createdAt: Date, now: Date): number {
  const remaining = trialEndsAt(createdAt).getTime() - now.getTime()
  return remaining <= 0 ? 0 : Math.ceil(remaining / DAY_MS)
}

export function trialEndsAt(createdAt: Date): Date {
  return new Date(createdAt.getTime() + TRIAL_DAYS * DAY_MS)
}

export interface SubjectPlanInput {
  context: PlanContext
  /** When the account or team was created: the trial's start. */
  createdAt: Date
  /** The plan chosen or granted, null while none is. */
  chosenPlan: ChoosablePlanId | null
  usage: { prompts: number; teamMembers: number }
  now: Date
  /** False with PLANS=off. */
  enabled: boolean
}

export const planLimitsSchema = z.object({
  /** Null: unlimited (PLANS=off). */
  maxPrompts: z.number().int().nullable(),
  maxTeamMembers: z.number().int().nullable(),
  apiAccess: z.boolean(),
  webhooks: z.boolean(),
})

export const planUsageSchema = z.object({ prompts: z.number().int(), teamMembers: z.number().int() })

/** What a subject may do now: the answer of `GET /api/v1/me/entitlements`. */
export const entitlementsSchema = z.object({
  context: z.enum(planContexts),
  /** The team for team context, else null. */
  teamId: z.uuid().nullable(),
  state: z.enum(planStates),
  /** The plan in force: 'trial' during the trial, the chosen plan when active, null otherwise. */
  plan: z.enum(planIds).nullable(),
  limits: planLimitsSchema,
  usage: planUsageSchema,
  trial: z.object({ daysLeft: z.number().int(), endsAt: z.string() }),
  /** False in payment_required: nothing may be created or edited. */
  canWrite: z.boolean(),
})
export type Entitlements = z.infer<typeof entitlementsSchema>

/** The entitlement rules: state, plan and limits of a subject from its creation, choice and usage. */
export function entitlementsOf(input: SubjectPlanInput & { teamId: string | null }): Entitlements {
  const daysLeft = trialDaysLeft(input.createdAt, input.now)
  const { state, plan, limits, canWrite } = standingOf(input, daysLeft)
  // One literal: spreading shared fields into each case's object cost 2-3 µs a call, on every
  // gated request.
  return {
    context: input.context,
    teamId: input.teamId,
    usage: input.usage,
    trial: { daysLeft, endsAt: trialEndsAt(input.createdAt).toISOString() },
    state,
    plan,
    limits,
    canWrite,
  }
}

/**
 * Only the state and the plan of `entitlementsOf` (the same rules): for a list that shows them for
 * each of its rows (the admin's accounts) without the limits and trial of each.
 */
export function planStandingOf(input: SubjectPlanInput): Pick<Entitlements, 'state' | 'plan'> {
  const { state, plan } = standingOf(input, trialDaysLeft(input.createdAt, input.now))
  return { state, plan }
}

function standingOf(
  input: SubjectPlanInput,
  daysLeft: number,
): Pick<Entitlements, 'state' | 'plan' | 'limits' | 'canWrite'> {
  if (!input.enabled) {
    return {
      state: 'unlimited',
      plan: null,
      limits: { maxPrompts: null, maxTeamMembers: null, apiAccess: true, webhooks: true },
      canWrite: true,
    }
  }
  const chosen = input.chosenPlan && isPlanOffered(input.chosenPlan, input.context) ? input.chosenPlan : null
  if (chosen)
    return { state: 'active', plan: chosen, limits: limitsOf(chosen, input.context), canWrite: true }
  if (daysLeft > 0) {
    return { state: 'trial', plan: 'trial', limits: limitsOf('trial', input.context), canWrite: true }
  }
  // Nothing may be written; what would be allowed reads as the Free plan's limits.
  return { state: 'payment_required', plan: null, limits: limitsOf('free', input.context), canWrite: false }
}

function limitsOf(plan: PlanId, context: PlanContext): PlanLimits {
  return PLANS[plan].limits[context] ?? PLANS.free.limits[context]!
}

/** The gated actions and the resource each one uses. */
export const gatedActions = {
  createPrompt: 'prompts',
  editPrompt: 'prompts',
  addMember: 'team_members',
  apiAccess: 'api_access',
  webhooks: 'webhooks',
} as const
export type GatedAction = keyof typeof gatedActions
export type PlanResource = (typeof gatedActions)[GatedAction]

export const planRefusalReasons = ['payment_required', 'limit_reached', 'feature_not_available'] as const
export type PlanRefusalReason = (typeof planRefusalReasons)[number]

/** The details of a 403 `plan_limit` refusal. */
export const planLimitDetailsSchema = z.object({
  context: z.enum(planContexts),
  reason: z.enum(planRefusalReasons),
  resource: z.enum(['prompts', 'team_members', 'api_access', 'webhooks']),
  used: z.number().int().nullable(),
  max: z.number().int().nullable(),
})
export type PlanLimitDetails = z.infer<typeof planLimitDetailsSchema>

export type PlanDecision = { allowed: true } | ({ allowed: false } & PlanLimitDetails)

/**
 * Whether an action is allowed, and why not. `adding` is how many the action adds (one prompt, one
 * member); `used` counts what exists, so at 9 of 10 one more is allowed and at 10 of 10 it is not.
 */
export function decide(entitlements: Entitlements, action: GatedAction, adding = 1): PlanDecision {
  const resource = gatedActions[action]
  const { context, limits } = entitlements
  const refuse = (reason: PlanRefusalReason, used: number | null = null, max: number | null = null) =>
    ({ allowed: false, context, reason, resource, used, max }) as const
  if (entitlements.state === 'unlimited') return { allowed: true }
  if (!entitlements.canWrite) {
    const counted = countedUsage(entitlements, resource)
    return refuse('payment_required', counted?.used ?? null, counted?.max ?? null)
  }
  switch (action) {
    case 'apiAccess':
      return limits.apiAccess ? { allowed: true } : refuse('feature_not_available')
    case 'webhooks':
      return limits.webhooks ? { allowed: true } : refuse('feature_not_available')
    case 'editPrompt':
      return { allowed: true }
    case 'createPrompt':
    case 'addMember': {
      const { used, max } = countedUsage(entitlements, resource)!
      if (max !== null && used + adding > max) return refuse('limit_reached', used, max)
      return { allowed: true }
    }
  }
}

function countedUsage(entitlements: Entitlements, resource: PlanResource) {
  if (resource === 'prompts') return { used: entitlements.usage.prompts, max: entitlements.limits.maxPrompts }
  if (resource === 'team_members') {
    return { used: entitlements.usage.teamMembers, max: entitlements.limits.maxTeamMembers }
  }
  return undefined
}

/** A usage bar's fill in percent, capped at 100; an unlimited or zero limit shows 0. */
export function usagePercent(used: number, max: number | null): number {
  if (max === null || max <= 0) return 0
  return Math.min(100, Math.round((used / max) * 100))
}

/** True from 80% of a limit on. */
export function nearLimit(used: number, max: number | null): boolean {
  return max !== null && max > 0 && used >= max * USAGE_WARNING_SHARE
}

export type PlanBannerKind = 'payment_required' | 'limit' | 'api_locked'

/**
 * Whether the plan banner shows, and why: on payment_required; at ≥ 80% of the prompt limit (or
 * of the team-member limit in team context); when API access is locked. The first reason wins;
 * `resource` and the figures tell the banner what to count.
 */
export function planBanner(
  entitlements: Entitlements,
): { kind: PlanBannerKind; resource: 'prompts' | 'team_members'; used: number; max: number | null } | null {
  if (entitlements.state === 'unlimited') return null
  const { usage, limits, context } = entitlements
  const prompts = { resource: 'prompts' as const, used: usage.prompts, max: limits.maxPrompts }
  const members = { resource: 'team_members' as const, used: usage.teamMembers, max: limits.maxTeamMembers }
  if (entitlements.state === 'payment_required') return { kind: 'payment_required', ...prompts }
  if (nearLimit(prompts.used, prompts.max)) return { kind: 'limit', ...prompts }
  if (context === 'team' && nearLimit(members.used, members.max)) return { kind: 'limit', ...members }
  if (!limits.apiAccess) return { kind: 'api_locked', ...prompts }
  return null
}

/** The words of a refusal, the same on the server's 403 and in the paywall. */
export function refusalMessageKey({ context, reason, resource }: PlanLimitDetails): MessageKey {
  if (reason === 'payment_required')
    return context === 'team' ? 'plans.paymentRequiredTeam' : 'plans.paymentRequired'
  if (resource === 'api_access') return 'plans.apiAccessLocked'
  if (resource === 'webhooks') return 'plans.webhooksLocked'
  if (resource === 'team_members') return 'plans.memberLimitReached'
  return context === 'team' ? 'plans.promptLimitReachedTeam' : 'plans.promptLimitReached'
}

/** The paywall's title for a refusal reason. */
export function paywallTitleOf(
  reason: PlanRefusalReason,
): 'upgradeRequired' | 'limitReached' | 'featureNotAvailable' {
  if (reason === 'payment_required') return 'upgradeRequired'
  if (reason === 'limit_reached') return 'limitReached'
  return 'featureNotAvailable'
}

export const planRequestStatuses = ['pending', 'granted', 'cancelled'] as const
export type PlanRequestStatus = (typeof planRequestStatuses)[number]

export const planRequestSchema = z.object({
  id: z.uuid(),
  context: z.enum(planContexts),
  teamId: z.uuid().nullable(),
  /** The user's email (personal) or the team's name. */
  subjectName: z.string(),
  plan: z.enum(choosablePlanIds),
  status: z.enum(planRequestStatuses),
  provider: z.string(),
  requestedByEmail: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
})
export type PlanRequest = z.infer<typeof planRequestSchema>

/** One space the caller may manage on /billing: its entitlements and its plan requests. */
export const billingSpaceSchema = z.object({
  name: z.string(),
  entitlements: entitlementsSchema,
  requests: z.array(planRequestSchema),
})
export type BillingSpace = z.infer<typeof billingSpaceSchema>

export const entitlementsQuery = z.object({
  teamId: z.uuid({ error: 'teams.notFound' }).optional(),
})

export const choosePlanInput = z.object({
  plan: z.enum(choosablePlanIds, { error: 'plans.planInvalid' }),
  teamId: z.uuid({ error: 'teams.notFound' }).nullable().default(null),
})
export type ChoosePlanInput = z.input<typeof choosePlanInput>

/** What choosing answers: the plan is set (Free) or a request waits for the billing provider. */
export const choosePlanResultSchema = z.object({
  outcome: z.enum(['active', 'pending']),
  entitlements: entitlementsSchema,
  request: planRequestSchema.nullable(),
  /** Where a hosted checkout continues (a Stripe provider's session); null with the manual provider. */
  checkoutUrl: z.string().nullable(),
})

export const grantPlanInput = z.object({
  context: z.enum(planContexts, { error: 'plans.contextInvalid' }),
  /** The user (personal) or the team. */
  subjectId: z.string().trim().min(1, 'plans.subjectNotFound'),
  /** Null takes the chosen plan away (back to trial or payment_required). */
  plan: z.enum(choosablePlanIds, { error: 'plans.planInvalid' }).nullable(),
})

export const planRequestsQuery = z.object({
  status: z.enum(planRequestStatuses, { error: 'plans.statusInvalid' }).optional(),
})

/** Who holds a plan: a user's personal space or a team. */
export type PlanSubject = { context: 'personal'; userId: string } | { context: 'team'; teamId: string }

/** The subject a prompt (or any object in a space) belongs to: its team, else its owner. */
export function subjectOf(userId: string, teamId: string | null | undefined): PlanSubject {
  return teamId ? { context: 'team', teamId } : { context: 'personal', userId }
}

/** How a plan subject is keyed (plan_subjects.subject_key, and the runtime cache's spaces). */
export type SubjectKey = `user:${string}` | `team:${string}`

export function subjectKeyOf(subject: PlanSubject): SubjectKey {
  return subject.context === 'team' ? `team:${subject.teamId}` : `user:${subject.userId}`
}
