import { describe, expect, it } from 'vitest'
import {
  acquisitionOf,
  type BuildReport,
  buildReportMarkdown,
  overallStatusOf,
  sameCounts,
  summarize,
} from './admin.ts'

describe('acquisitionOf', () => {
  it('fills every UTC day of the window, oldest first, and sums the last 7 days', () => {
    const today = new Date('2026-11-24T23:30:00Z')
    const result = acquisitionOf(
      [
        { date: '2026-11-24', count: 3 },
        { date: '2026-11-18', count: 2 },
        { date: '2026-11-17', count: 5 },
        { date: '2026-10-26', count: 1 },
      ],
      today,
    )
    expect(result.days).toHaveLength(30)
    expect(result.days[0]).toEqual({ date: '2026-10-26', count: 1 })
    expect(result.days.at(-1)).toEqual({ date: '2026-11-24', count: 3 })
    expect(result.total).toBe(11)
    // 18..24 November: 2 + 3; the 17th is the 8th day back.
    expect(result.lastDaysCount).toBe(5)
    expect(result.lastDays).toBe(7)
    expect(result.averagePerDay).toBe(0.4)
  })
})

describe('the build report rules', () => {
  const areaOf = (statuses: Array<['completed' | 'partial' | 'missing', 'high' | 'medium' | 'low']>) => [
    {
      area: 'a',
      items: statuses.map(([status, priority], i) => ({ key: `k${i}`, status, priority, evidence: '' })),
    },
  ]

  it('is critical with more than 2 high-priority items missing', () => {
    const summary = summarize(
      areaOf([
        ['missing', 'high'],
        ['missing', 'high'],
        ['missing', 'high'],
        ['completed', 'low'],
      ]),
    )
    expect(summary).toMatchObject({ total: 4, missing: 3, highPriorityMissing: 3 })
    expect(overallStatusOf(summary)).toBe('critical')
  })

  it('is a warning under 70% completed, else healthy', () => {
    const seven = Array.from({ length: 7 }, () => ['completed', 'low'] as ['completed', 'low'])
    const three = Array.from({ length: 3 }, () => ['partial', 'low'] as ['partial', 'low'])
    expect(overallStatusOf(summarize(areaOf([...seven, ...three])))).toBe('healthy')
    expect(overallStatusOf(summarize(areaOf([...seven.slice(1), ...three, ['missing', 'high']])))).toBe(
      'warning',
    )
  })

  it('compares reports by their counts', () => {
    const a = summarize(areaOf([['completed', 'low']]))
    expect(sameCounts(a, { ...a })).toBe(true)
    expect(sameCounts(a, { ...a, partial: 1, total: 2 })).toBe(false)
  })

  it('exports a report as Markdown with one table per area', () => {
    const report: BuildReport = {
      generatedAt: '2026-11-24T10:00:00.000Z',
      version: '1.2.3',
      commit: 'abc123',
      uptimeSeconds: 3600,
      failedSignInsLast24h: 2,
      overallStatus: 'healthy',
      summary: { total: 1, completed: 1, partial: 0, missing: 0, highPriorityMissing: 0 },
      areas: [
        {
          area: 'database',
          items: [{ key: 'db.ok', status: 'completed', priority: 'high', evidence: 'a|b' }],
        },
      ],
    }
    const words = {
      title: 'Report',
      generated: 'Generated',
      version: 'Version',
      commit: 'Commit',
      uptime: 'Uptime',
      failedSignIns: 'Failed',
      overall: 'Overall',
      summary: 'Summary',
      criterion: 'Criterion',
      status: 'Status',
      priority: 'Priority',
      evidence: 'Evidence',
      statusOf: (s: string) => s.toUpperCase(),
      priorityOf: (p: string) => p,
      overallOf: (o: string) => o,
      areaOf: (a: string) => `Area ${a}`,
      itemOf: (k: string) => `Item ${k}`,
      uptimeOf: (s: number) => `${s / 3600} h`,
    }
    const markdown = buildReportMarkdown(report, words)
    expect(markdown).toContain('# Report\n')
    expect(markdown).toContain('- Commit: abc123')
    expect(markdown).toContain('- Uptime: 1 h')
    expect(markdown).toContain('## Area database')
    expect(markdown).toContain('| Item db.ok | COMPLETED | high | a\\|b |')
  })
})
