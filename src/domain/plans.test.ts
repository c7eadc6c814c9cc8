import { describe, expect, it } from 'vitest'
import {
  decide,
  type Entitlements,
  entitlementsOf,
  nearLimit,
  PLANS,
  planBanner,
  plansFor,
  type SubjectPlanInput,
  trialDaysLeft,
  usagePercent,
} from './plans.ts'

const created = new Date('2026-03-01T23:30:00.000Z')
const at = (iso: string) => new Date(iso)

describe('trialDaysLeft (14 × 24 h from creation, on UTC instants)', () => {
  it.each([
    ['at creation', '2026-03-01T23:30:00.000Z', 14],
    ['one minute later', '2026-03-01T23:31:00.000Z', 14],
    ['one day later to the millisecond', '2026-03-02T23:30:00.000Z', 13],
    ['the next UTC calendar day does not cost a day', '2026-03-02T00:30:00.000Z', 14],
    ['13 days and 1 ms later', '2026-03-14T23:30:00.001Z', 1],
    ['the last millisecond', '2026-03-15T23:29:59.999Z', 1],
    ['the end', '2026-03-15T23:30:00.000Z', 0],
    ['long after', '2027-01-01T00:00:00.000Z', 0],
  ])('%s → %i', (_, now, days) => {
    expect(trialDaysLeft(created, at(now))).toBe(days)
  })

  it('does not depend on the time zone of the strings it was given', () => {
    expect(trialDaysLeft(new Date('2026-03-02T00:30:00+01:00'), at('2026-03-15T23:29:59.999Z'))).toBe(1)
  })
})

function subject(overrides: Partial<SubjectPlanInput> = {}): Entitlements {
  return entitlementsOf({
    context: 'personal',
    createdAt: created,
    chosenPlan: null,
    usage: { prompts: 0, teamMembers: 1 },
    now: at('2026-03-05T00:00:00Z'),
    enabled: true,
    teamId: null,
    ...overrides,
  })
}
const expired = at('2026-03-15T23:30:00.000Z')

describe('entitlementsOf', () => {
  it.each<[string, Partial<SubjectPlanInput>, Partial<Entitlements>]>([
    ['trial, personal', {}, { state: 'trial', plan: 'trial', canWrite: true }],
    ['trial, team', { context: 'team' }, { state: 'trial', plan: 'trial' }],
    [
      'trial over, nothing chosen',
      { now: expired },
      { state: 'payment_required', plan: null, canWrite: false },
    ],
    ['Free chosen during the trial', { chosenPlan: 'free' }, { state: 'active', plan: 'free' }],
    ['Free chosen after the trial', { chosenPlan: 'free', now: expired }, { state: 'active', plan: 'free' }],
    ['Pro, personal', { chosenPlan: 'pro', now: expired }, { state: 'active', plan: 'pro' }],
    ['Team plan, team', { context: 'team', chosenPlan: 'team' }, { state: 'active', plan: 'team' }],
    ['Team plan is not offered to a person', { chosenPlan: 'team' }, { state: 'trial', plan: 'trial' }],
    [
      'Pro is not offered to a team',
      { context: 'team', chosenPlan: 'pro', now: expired },
      { state: 'payment_required' },
    ],
    ['PLANS=off', { enabled: false, now: expired }, { state: 'unlimited', plan: null, canWrite: true }],
  ])('%s', (_, input, expected) => {
    expect(subject(input)).toMatchObject(expected)
  })

  it('takes the limits from the one plan table', () => {
    expect(subject().limits).toEqual(PLANS.trial.limits.personal)
    expect(subject({ context: 'team' }).limits).toEqual(PLANS.trial.limits.team)
    expect(subject({ chosenPlan: 'pro' }).limits).toMatchObject({ maxPrompts: 1000, apiAccess: true })
    expect(subject({ context: 'team', chosenPlan: 'team' }).limits).toMatchObject({
      maxPrompts: 10_000,
      maxTeamMembers: 50,
    })
    expect(subject({ enabled: false }).limits).toEqual({
      maxPrompts: null,
      maxTeamMembers: null,
      apiAccess: true,
      webhooks: true,
    })
  })

  it('locks API access and webhooks on Free only', () => {
    expect(subject({ chosenPlan: 'free' }).limits).toMatchObject({ apiAccess: false, webhooks: false })
    expect(subject().limits).toMatchObject({ apiAccess: true, webhooks: true })
  })

  it('reports the trial days left and its end', () => {
    expect(subject().trial).toEqual({ daysLeft: 11, endsAt: '2026-03-15T23:30:00.000Z' })
  })

  it('offers Free and Pro to people, Free and Team to teams', () => {
    expect(plansFor('personal').map((p) => p.id)).toEqual(['free', 'pro'])
    expect(plansFor('team').map((p) => p.id)).toEqual(['free', 'team'])
  })
})

describe('decide', () => {
  const prompts = (n: number, more: Partial<SubjectPlanInput> = {}) =>
    subject({ usage: { prompts: n, teamMembers: 1 }, ...more })

  it.each<[string, Entitlements, Parameters<typeof decide>[1], ReturnType<typeof decide>]>([
    ['9 of 10 prompts: one more', prompts(9), 'createPrompt', { allowed: true }],
    [
      '10 of 10 prompts: limit reached',
      prompts(10),
      'createPrompt',
      {
        allowed: false,
        context: 'personal',
        reason: 'limit_reached',
        resource: 'prompts',
        used: 10,
        max: 10,
      },
    ],
    [
      'over the limit after a downgrade',
      prompts(12, { chosenPlan: 'free' }),
      'createPrompt',
      {
        allowed: false,
        context: 'personal',
        reason: 'limit_reached',
        resource: 'prompts',
        used: 12,
        max: 10,
      },
    ],
    [
      'payment_required refuses creating',
      prompts(3, { now: expired }),
      'createPrompt',
      {
        allowed: false,
        context: 'personal',
        reason: 'payment_required',
        resource: 'prompts',
        used: 3,
        max: 10,
      },
    ],
    [
      'payment_required refuses editing',
      prompts(3, { now: expired }),
      'editPrompt',
      {
        allowed: false,
        context: 'personal',
        reason: 'payment_required',
        resource: 'prompts',
        used: 3,
        max: 10,
      },
    ],
    ['editing at the limit is fine', prompts(10), 'editPrompt', { allowed: true }],
    [
      'API access on Free',
      prompts(0, { chosenPlan: 'free' }),
      'apiAccess',
      {
        allowed: false,
        context: 'personal',
        reason: 'feature_not_available',
        resource: 'api_access',
        used: null,
        max: null,
      },
    ],
    [
      'webhooks on Free',
      prompts(0, { chosenPlan: 'free' }),
      'webhooks',
      {
        allowed: false,
        context: 'personal',
        reason: 'feature_not_available',
        resource: 'webhooks',
        used: null,
        max: null,
      },
    ],
    ['API access in the trial', prompts(0), 'apiAccess', { allowed: true }],
    ['webhooks on Pro', prompts(0, { chosenPlan: 'pro' }), 'webhooks', { allowed: true }],
    [
      '4 of 5 members: one more',
      subject({ context: 'team', usage: { prompts: 0, teamMembers: 4 } }),
      'addMember',
      { allowed: true },
    ],
    [
      '5 of 5 members',
      subject({ context: 'team', usage: { prompts: 0, teamMembers: 5 } }),
      'addMember',
      { allowed: false, context: 'team', reason: 'limit_reached', resource: 'team_members', used: 5, max: 5 },
    ],
    [
      'PLANS=off allows 10,000 of nothing',
      prompts(10_000, { enabled: false, now: expired }),
      'createPrompt',
      { allowed: true },
    ],
  ])('%s', (_, entitlements, action, expected) => {
    expect(decide(entitlements, action)).toEqual(expected)
  })
})

describe('usage bars and the 80% threshold', () => {
  it.each([
    [0, 10, 0],
    [7, 10, 70],
    [8, 10, 80],
    [10, 10, 100],
    [15, 10, 100],
    [1, 3, 33],
    [5, null, 0],
    [5, 0, 0],
  ])('%i of %s → %i%%', (used, max, percent) => {
    expect(usagePercent(used, max)).toBe(percent)
  })

  it.each([
    [7, 10, false],
    [8, 10, true],
    [10, 10, true],
    [39, 50, false],
    [40, 50, true],
    [799, 1000, false],
    [800, 1000, true],
    [3, 4, false],
    [4, 5, true],
    [100, null, false],
  ])('%i of %s: near the limit %s', (used, max, near) => {
    expect(nearLimit(used, max)).toBe(near)
  })
})

describe('planBanner', () => {
  it.each<[string, Partial<SubjectPlanInput>, ReturnType<typeof planBanner>]>([
    ['trial, 7 of 10', { usage: { prompts: 7, teamMembers: 1 } }, null],
    [
      'trial, 8 of 10',
      { usage: { prompts: 8, teamMembers: 1 } },
      { kind: 'limit', resource: 'prompts', used: 8, max: 10 },
    ],
    [
      'payment_required',
      { now: expired, usage: { prompts: 2, teamMembers: 1 } },
      { kind: 'payment_required', resource: 'prompts', used: 2, max: 10 },
    ],
    [
      'Free locks the API',
      { chosenPlan: 'free' },
      { kind: 'api_locked', resource: 'prompts', used: 0, max: 10 },
    ],
    [
      'Free near the limit says so first',
      { chosenPlan: 'free', usage: { prompts: 9, teamMembers: 1 } },
      { kind: 'limit', resource: 'prompts', used: 9, max: 10 },
    ],
    [
      'team at 4 of 5 members',
      { context: 'team', usage: { prompts: 1, teamMembers: 4 } },
      { kind: 'limit', resource: 'team_members', used: 4, max: 5 },
    ],
    ['personal members never count', { usage: { prompts: 1, teamMembers: 1 } }, null],
    ['Pro at 500', { chosenPlan: 'pro', usage: { prompts: 500, teamMembers: 1 } }, null],
    ['PLANS=off', { enabled: false, now: expired }, null],
  ])('%s', (_, input, expected) => {
    expect(planBanner(subject(input))).toEqual(expected)
  })
})
