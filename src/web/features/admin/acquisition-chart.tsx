import { useTranslation } from 'react-i18next'
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts'
import type { AcquisitionDay } from '../../../domain/admin.ts'
import { currentLanguage } from '../../i18n/index.ts'

/** `2026-11-24` → `Nov 24` in the reader's language (UTC: the days are UTC days). */
export function dayLabel(date: string, style: 'short' | 'long' = 'short'): string {
  return new Date(`${date}T00:00:00Z`).toLocaleDateString(currentLanguage(), {
    month: style === 'short' ? 'short' : 'long',
    day: 'numeric',
    ...(style === 'long' && { year: 'numeric' }),
    timeZone: 'UTC',
  })
}

/**
 * Sign-ups per day as a bar chart (recharts, loaded only with the admin screen). The chart is a
 * picture for sighted readers; the same figures are in the table next to it for everyone else.
 */
export function AcquisitionChart({ days }: { days: readonly AcquisitionDay[] }) {
  const { t } = useTranslation('admin')
  const data = days.map((day) => ({ ...day, label: dayLabel(day.date) }))
  return (
    <div aria-hidden className="h-56 w-full" data-testid="acquisition-chart">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
          <XAxis
            dataKey="label"
            tick={{ fill: 'var(--color-muted-foreground)', fontSize: 12 }}
            tickLine={false}
            axisLine={{ stroke: 'var(--color-border)' }}
            interval="preserveStartEnd"
            minTickGap={16}
          />
          <YAxis
            allowDecimals={false}
            tick={{ fill: 'var(--color-muted-foreground)', fontSize: 12 }}
            tickLine={false}
            axisLine={false}
          />
          <Tooltip
            cursor={{ fill: 'var(--color-muted)' }}
            contentStyle={{
              background: 'var(--color-card)',
              border: '1px solid var(--color-border)',
              borderRadius: 8,
              color: 'var(--color-foreground)',
            }}
            formatter={(value) => [value, t('acquisition.signUps')]}
          />
          <Bar dataKey="count" fill="var(--color-primary)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  )
}
