import { describe, expect, it } from 'vitest'
import {
  bannerMilestone,
  lastUtcDays,
  onboardingChecklist,
  onboardingProgress,
  streakDays,
  teamMilestone,
  teamMilestones,
  teamPulse,
  utcDay,
} from './dashboard.ts'

describe('streakDays', () => {
  const now = new Date('2026-11-21T00:30:00Z')
  it.each([
    ['no activity', [], 0],
    ['today only', ['2026-11-21'], 1],
    ['yesterday only (today not yet active)', ['2026-11-20'], 1],
    ['the day before yesterday only', ['2026-11-19'], 0],
    ['today and the two days before', ['2026-11-21', '2026-11-20', '2026-11-19'], 3],
    [
      'yesterday back, with a gap after three days',
      ['2026-11-20', '2026-11-19', '2026-11-18', '2026-11-16'],
      3,
    ],
    ['a gap yesterday breaks it at today', ['2026-11-21', '2026-11-19'], 1],
    ['across a month edge', ['2026-11-21', '2026-11-20', '2026-11-01', '2026-10-31'], 2],
    ['duplicates and any order', ['2026-11-19', '2026-11-21', '2026-11-20', '2026-11-21'], 3],
  ] as const)('%s → %i', (_, days, expected) => {
    expect(streakDays(days, now)).toBe(expected)
  })

  it('uses UTC days: 23:59 and 00:00 UTC are different days whatever the local zone', () => {
    const justAfterMidnight = new Date('2026-11-21T00:00:00Z')
    expect(utcDay('2026-11-20T23:59:59.999Z')).toBe('2026-11-20')
    expect(utcDay(justAfterMidnight)).toBe('2026-11-21')
    expect(streakDays([utcDay('2026-11-20T23:59:59Z')], justAfterMidnight)).toBe(1)
    expect(streakDays([utcDay('2026-11-20T23:59:59Z')], new Date('2026-11-22T00:00:00Z'))).toBe(0)
  })

  it('crosses a year edge', () => {
    expect(streakDays(['2027-01-01', '2026-12-31', '2026-12-30'], new Date('2027-01-01T10:00:00Z'))).toBe(3)
  })
})

describe('lastUtcDays', () => {
  it('lists the week ending today, oldest first', () => {
    expect(lastUtcDays(7, new Date('2026-03-02T23:00:00Z'))).toEqual([
      '2026-02-24',
      '2026-02-25',
      '2026-02-26',
      '2026-02-27',
      '2026-02-28',
      '2026-03-01',
      '2026-03-02',
    ])
  })
})

describe('teamPulse', () => {
  it.each([
    [
      'growth',
      { prompts: 4, versions: 6, conversations: 2 },
      { prompts: 5, versions: 10, conversations: 2 },
      { prompts: 1, versions: 4, conversations: 0 },
      { prompts: 3, versions: 2, conversations: 2 },
    ],
    [
      'a quiet week after a busy one',
      { prompts: 0, versions: 0, conversations: 0 },
      { prompts: 7, versions: 3, conversations: 1 },
      { prompts: 7, versions: 3, conversations: 1 },
      { prompts: -7, versions: -3, conversations: -1 },
    ],
    [
      'nothing at all',
      { prompts: 0, versions: 0, conversations: 0 },
      { prompts: 0, versions: 0, conversations: 0 },
      { prompts: 0, versions: 0, conversations: 0 },
      { prompts: 0, versions: 0, conversations: 0 },
    ],
  ])('%s: previous = 14-day − 7-day, change = this − previous', (_, week, fortnight, previous, change) => {
    expect(teamPulse(week, fortnight)).toEqual({ windowDays: 7, current: week, previous, change })
  })
})

describe('teamMilestones and bannerMilestone', () => {
  it.each([
    [0, 0, null],
    [4, 9, null],
    [5, 0, 'prompts5'],
    [9, 9, 'prompts5'],
    [10, 9, 'prompts10'],
    [10, 10, 'versions10'],
    [25, 12, 'prompts25'],
    [12, 25, 'versions25'],
    [30, 50, 'versions50'],
    [25, 25, 'versions25'],
  ])('%i prompts, %i versions → %s', (prompts, versions, expected) => {
    const banner = bannerMilestone(teamMilestones(prompts, versions), new Set())
    expect(banner ? `${banner.kind}${banner.threshold}` : null).toBe(expected)
  })

  it('flags every threshold reached', () => {
    expect(teamMilestones(10, 25).hit).toEqual({
      prompts5: true,
      prompts10: true,
      prompts25: false,
      versions10: true,
      versions25: true,
      versions50: false,
    })
  })

  it.each([
    [['versions25'], 'versions10'],
    [['versions25', 'versions10'], 'prompts10'],
    [['versions25', 'versions10', 'prompts10'], 'prompts5'],
    [['versions25', 'prompts10', 'versions10', 'prompts5'], null],
  ])('dismissing %j shows %s next', (dismissed, expected) => {
    const banner = bannerMilestone(teamMilestones(10, 25), new Set(dismissed))
    expect(banner ? `${banner.kind}${banner.threshold}` : null).toBe(expected)
  })
})

describe('teamMilestone', () => {
  it.each([
    [0, false],
    [4, false],
    [5, true],
    [9, true],
  ])('%i prompts this week → reached %s', (current, reached) => {
    expect(teamMilestone(current)).toEqual({ current, goal: 5, windowDays: 7, reached })
  })
})

describe('onboarding', () => {
  it.each([
    [{}, 0],
    [{ first_prompt: true }, 25],
    [{ first_prompt: true, join_team: true }, 50],
    [{ first_prompt: true, join_team: true, attach_prompt: true }, 75],
    [{ first_prompt: true, join_team: true, attach_prompt: true, start_conversation: true }, 100],
  ])('checklist %j → %i%%', (done, percent) => {
    const checklist = onboardingChecklist(done)
    expect(checklist.percent).toBe(percent)
    expect(checklist.items.map((item) => item.key)).toEqual([
      'first_prompt',
      'attach_prompt',
      'join_team',
      'start_conversation',
    ])
  })

  it.each([
    [{}, 0],
    [{ firstPrompt: true }, 20],
    [{ firstPrompt: true, tagsAdded: true, versionCreated: true }, 60],
    [{ firstPrompt: true, tagsAdded: true, versionCreated: true, currentSet: true, teamVisible: true }, 100],
  ])('progress %j → %i%%', (done, percent) => {
    expect(onboardingProgress(done).percent).toBe(percent)
  })
})
