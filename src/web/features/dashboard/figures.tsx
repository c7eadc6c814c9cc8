import {
  Activity,
  ArrowDownRight,
  ArrowUpRight,
  Bell,
  CheckCircle2,
  Circle,
  Flame,
  PartyPopper,
  Rocket,
  Settings,
  Shield,
  Sparkles,
  Target,
  Trophy,
  X,
} from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import {
  bannerMilestone,
  type Dashboard,
  type Milestones,
  milestoneKey,
  type RankedPrompt,
} from '../../../domain/dashboard.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { cn } from '../../lib/cn.ts'
import { formatNumber } from '../../lib/format.ts'
import { Widget, WidgetBody, WidgetEmpty } from './widget.tsx'

/** The dashboard query as the figure widgets read it. */
export interface DashboardQuery {
  isPending: boolean
  isError: boolean
  refetch: () => unknown
  data?: Dashboard
}

function readStorage(storage: () => Storage, key: string): string | null {
  try {
    return storage().getItem(key)
  } catch {
    return null
  }
}
function writeStorage(storage: () => Storage, key: string, value: string) {
  try {
    storage().setItem(key, value)
  } catch {
    // not remembered: the choice lasts as long as this page
  }
}

/**
 * 'Getting started': the four steps and the percent. At 100% the card is gone, after a
 * short celebration the first time (remembered per user in this browser).
 */
export function ChecklistWidget({ query, userId }: { query: DashboardQuery; userId: string }) {
  const { t } = useTranslation('dashboard')
  const title = t('checklist.title')
  const celebratedKey = `dashboard.onboardingCelebrated.${userId}`
  const complete = query.data?.checklist.percent === 100
  const [celebrating, setCelebrating] = useState(false)
  useEffect(() => {
    if (complete && !readStorage(() => localStorage, celebratedKey)) {
      writeStorage(() => localStorage, celebratedKey, new Date().toISOString())
      setCelebrating(true)
    }
  }, [complete, celebratedKey])
  if (celebrating)
    return (
      <Widget title={t('checklist.celebrationTitle')} icon={PartyPopper}>
        <div role="status" className="space-y-3">
          <p className="text-sm">{t('checklist.celebrationText')}</p>
          <Button size="sm" variant="outline" onClick={() => setCelebrating(false)}>
            {t('checklist.dismiss')}
          </Button>
        </div>
      </Widget>
    )
  if (complete) return null
  return (
    <Widget title={title} icon={Rocket}>
      <WidgetBody title={title} query={query} rows={4}>
        {() => {
          const { items, percent } = query.data!.checklist
          return (
            <div className="space-y-3">
              <div className="space-y-1">
                <p className="text-sm font-medium">{t('checklist.percent', { percent })}</p>
                <div
                  role="progressbar"
                  aria-label={t('checklist.progressLabel')}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  className="h-2 overflow-hidden rounded-full bg-muted"
                >
                  <div
                    className="h-full rounded-full bg-primary transition-all"
                    style={{ width: `${percent}%` }}
                  />
                </div>
              </div>
              <ul className="space-y-1.5">
                {items.map((item) => (
                  <li key={item.key} className="flex items-center gap-2 text-sm">
                    {item.done ? (
                      <CheckCircle2 aria-hidden className="size-4 text-success" />
                    ) : (
                      <Circle aria-hidden className="size-4 text-muted-foreground" />
                    )}
                    <span className={cn(item.done && 'text-muted-foreground line-through')}>
                      {t(`checklist.${item.key}`)}
                    </span>
                    <span className="sr-only">({item.done ? t('checklist.done') : t('checklist.todo')})</span>
                  </li>
                ))}
              </ul>
            </div>
          )
        }}
      </WidgetBody>
    </Widget>
  )
}

/** 'Team momentum this week': the team's prompts of the last 7 days against the goal of 5. */
export function TeamMilestoneWidget({ query }: { query: DashboardQuery }) {
  const { t } = useTranslation('dashboard')
  const title = t('milestone.title')
  return (
    <Widget title={title} icon={Target}>
      <WidgetBody title={title} query={query} rows={2}>
        {() => {
          const { current, goal, windowDays, reached } = query.data!.milestone
          return (
            <div className="space-y-2">
              <p className="text-sm font-medium">
                {t('milestone.progress', { current, goal, days: windowDays })}
              </p>
              <div
                role="progressbar"
                aria-label={title}
                aria-valuemin={0}
                aria-valuemax={goal}
                aria-valuenow={Math.min(current, goal)}
                className="h-2 overflow-hidden rounded-full bg-muted"
              >
                <div
                  className="h-full rounded-full bg-primary"
                  style={{ width: `${Math.min(100, (current / goal) * 100)}%` }}
                />
              </div>
              <p className="text-sm text-muted-foreground">
                {reached ? t('milestone.reached') : t('milestone.hint', { count: goal - current })}
              </p>
            </div>
          )
        }}
      </WidgetBody>
    </Widget>
  )
}

/** The streak badge: consecutive UTC days with something created; hidden at 0. */
export function StreakBadge({ streak }: { streak: number | undefined }) {
  const { t } = useTranslation('dashboard')
  if (!streak) return null
  return (
    <Badge variant="warning" title={t('streak.description')}>
      <Flame aria-hidden />
      {t('streak.label', { count: streak })}
    </Badge>
  )
}

/** Notifications, Settings & Profile, and for global admins the Admin Dashboard. */
export function AccountWidget({ isGlobalAdmin }: { isGlobalAdmin: boolean }) {
  const { t } = useTranslation('dashboard')
  return (
    <Widget title={t('notifications.title')} icon={Bell}>
      <div className="space-y-3">
        <p className="text-sm text-muted-foreground">{t('notifications.none')}</p>
        <div className="flex flex-col gap-2">
          <Button asChild variant="outline" size="sm" className="justify-start">
            <Link to="/settings/profile">
              <Settings aria-hidden />
              {t('links.settings')}
            </Link>
          </Button>
          {isGlobalAdmin && (
            <Button asChild variant="outline" size="sm" className="justify-start">
              <Link to="/admin">
                <Shield aria-hidden />
                {t('links.admin')}
              </Link>
            </Button>
          )}
        </div>
      </div>
    </Widget>
  )
}

function Change({ value }: { value: number }) {
  const { t } = useTranslation('dashboard')
  if (value === 0) return <span className="text-xs text-muted-foreground">{t('pulse.same')}</span>
  const up = value > 0
  const Icon = up ? ArrowUpRight : ArrowDownRight
  return (
    <span
      className={cn('inline-flex items-center gap-0.5 text-xs', up ? 'text-success' : 'text-destructive')}
    >
      <Icon aria-hidden className="size-3" />
      {up ? t('pulse.up', { count: value }) : t('pulse.down', { count: -value })}
    </span>
  )
}

/** Team pulse: prompts, versions and conversations of the last 7 days against the week before. */
export function PulseWidget({ query, team }: { query: DashboardQuery; team: boolean }) {
  const { t } = useTranslation('dashboard')
  const title = team ? t('pulse.title') : t('pulse.personalTitle')
  return (
    <Widget title={title} icon={Activity}>
      <WidgetBody title={title} query={query} rows={3}>
        {() => {
          const pulse = query.data!.pulse
          return (
            <div className="space-y-2">
              <p className="text-xs text-muted-foreground">
                {t('pulse.caption', { days: pulse.windowDays })}
              </p>
              <dl className="divide-y">
                {(['prompts', 'versions', 'conversations'] as const).map((key) => (
                  // Every row the same grid: name and number on one line, last week's figure under them.
                  <div
                    key={key}
                    className="grid grid-cols-[1fr_auto] items-baseline gap-x-3 gap-y-0.5 py-1.5"
                  >
                    <dt className="min-w-0 text-sm text-muted-foreground">{t(`pulse.${key}`)}</dt>
                    <dd className="text-right text-xl font-semibold tabular-nums">{pulse.current[key]}</dd>
                    <dd className="col-span-2 text-xs text-muted-foreground">
                      {t('pulse.previous', { count: pulse.previous[key] })} ·{' '}
                      <Change value={pulse.change[key]} />
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          )
        }}
      </WidgetBody>
    </Widget>
  )
}

function RankedList({ rows, label }: { rows: RankedPrompt[]; label: (count: number) => string }) {
  const top = Math.max(...rows.map((row) => row.count))
  return (
    <ol className="space-y-2">
      {rows.map((row) => (
        <li key={row.id} className="space-y-1">
          <div className="flex items-center justify-between gap-2 text-sm">
            <Link to={`/prompts/${row.id}`} className="min-w-0 truncate font-medium hover:underline">
              {row.title}
            </Link>
            <span className="shrink-0 text-xs text-muted-foreground">{label(row.count)}</span>
          </div>
          <div aria-hidden className="h-1.5 overflow-hidden rounded-full bg-muted">
            <div
              className="h-full rounded-full bg-primary/70"
              style={{ width: `${(row.count / top) * 100}%` }}
            />
          </div>
        </li>
      ))}
    </ol>
  )
}

/** Performance: the context's most used prompts (by attachments to messages), from real data. */
export function PerformanceWidget({ query }: { query: DashboardQuery }) {
  const { t } = useTranslation('dashboard')
  const title = t('performance.title')
  return (
    <Widget title={title} icon={Activity}>
      <p className="mb-2 text-xs text-muted-foreground">{t('performance.caption')}</p>
      <WidgetBody title={title} query={query}>
        {() =>
          query.data!.mostUsed.length === 0 ? (
            <WidgetEmpty>{t('performance.empty')}</WidgetEmpty>
          ) : (
            <RankedList rows={query.data!.mostUsed} label={(count) => t('performance.uses', { count })} />
          )
        }
      </WidgetBody>
    </Widget>
  )
}

/** Top Performers: the context's most revised prompts. */
export function TopPerformersWidget({ query }: { query: DashboardQuery }) {
  const { t } = useTranslation('dashboard')
  const title = t('topPerformers.title')
  return (
    <Widget title={title} icon={Trophy}>
      <p className="mb-2 text-xs text-muted-foreground">{t('topPerformers.caption')}</p>
      <WidgetBody title={title} query={query}>
        {() =>
          query.data!.mostRevised.length === 0 ? (
            <WidgetEmpty>{t('topPerformers.empty')}</WidgetEmpty>
          ) : (
            <RankedList
              rows={query.data!.mostRevised}
              label={(count) => t('topPerformers.versions', { count })}
            />
          )
        }
      </WidgetBody>
    </Widget>
  )
}

/**
 * Model usage: prompt runs and generated replies of the last 7 days with their tokens (personal:
 * the caller's own; team: on the team's providers), and a way to Settings → Models when there are none.
 */
export function ModelUsageWidget({ query }: { query: DashboardQuery }) {
  const { t } = useTranslation('dashboard')
  const title = t('modelUsage.title')
  return (
    <Widget title={title} icon={Sparkles}>
      <WidgetBody title={title} query={query} rows={3}>
        {() => {
          const usage = query.data!.modelUsage
          if (usage.runs + usage.replies === 0)
            return (
              <WidgetEmpty>
                {t('modelUsage.empty')}{' '}
                <Link to="/settings/models" className="font-medium text-primary hover:underline">
                  {t('modelUsage.setUp')}
                </Link>
              </WidgetEmpty>
            )
          const rows = [
            ['runs', usage.runs],
            ['replies', usage.replies],
            ['inputTokens', usage.inputTokens],
            ['outputTokens', usage.outputTokens],
          ] as const
          return (
            <div className="space-y-2">
              <p className="text-xs text-muted-foreground">
                {t('modelUsage.caption', { days: usage.windowDays })}
              </p>
              <dl className="grid grid-cols-2 gap-3">
                {rows.map(([key, value]) => (
                  <div key={key} className="min-w-0">
                    <dt className="truncate text-xs text-muted-foreground">{t(`modelUsage.${key}`)}</dt>
                    <dd className="text-xl font-semibold tabular-nums">{formatNumber(value)}</dd>
                  </div>
                ))}
              </dl>
              {usage.failed > 0 && (
                <p className="text-xs text-destructive">{t('modelUsage.failed', { count: usage.failed })}</p>
              )}
            </div>
          )
        }}
      </WidgetBody>
    </Widget>
  )
}

/** The weekly activity strip: 7 small bars, with the figures as a list for screen readers. */
export function WeeklyStrip({ weekly }: { weekly: Dashboard['weekly'] }) {
  const { t } = useTranslation('dashboard')
  const top = Math.max(1, ...weekly.map((day) => day.count))
  const weekday = new Intl.DateTimeFormat(currentLanguage() === 'de' ? 'de-DE' : 'en-US', {
    weekday: 'short',
    timeZone: 'UTC',
  })
  const total = weekly.reduce((sum, day) => sum + day.count, 0)
  return (
    <figure className="space-y-1" aria-label={t('weekly.label')}>
      <figcaption className="text-xs text-muted-foreground">
        {t('weekly.title')} · {t('weekly.total', { count: total })}
      </figcaption>
      <ol className="flex h-16 items-end gap-1.5">
        {weekly.map((day) => {
          const name = weekday.format(new Date(`${day.day}T12:00:00Z`))
          return (
            <li key={day.day} className="flex h-full flex-1 flex-col items-center justify-end gap-0.5">
              <span className="sr-only">{t('weekly.day', { day: name, count: day.count })}</span>
              <span aria-hidden className="text-[10px] leading-none tabular-nums text-muted-foreground">
                {day.count}
              </span>
              <div
                aria-hidden
                title={t('weekly.day', { day: name, count: day.count })}
                className={cn('w-full rounded-sm', day.count > 0 ? 'bg-primary' : 'bg-muted')}
                style={{ height: `${Math.max(8, (day.count / top) * 100)}%` }}
              />
              <span aria-hidden className="text-[10px] text-muted-foreground">
                {name}
              </span>
            </li>
          )
        })}
      </ol>
    </figure>
  )
}

const dismissedKey = (teamId: string) => `milestones.dismissed.${teamId}`

/**
 * Milestone banner: of the achieved, undismissed milestones only the highest shows; a dismissal
 * lasts the page session (sessionStorage), after which the next highest may show.
 */
export function MilestoneBanner({ teamId, milestones }: { teamId: string; milestones: Milestones }) {
  const { t } = useTranslation('dashboard')
  const [dismissed, setDismissed] = useState<Set<string>>(
    () => new Set(JSON.parse(readStorage(() => sessionStorage, dismissedKey(teamId)) ?? '[]') as string[]),
  )
  const milestone = bannerMilestone(milestones, dismissed)
  if (!milestone) return null
  const dismiss = () => {
    const next = new Set(dismissed).add(milestoneKey(milestone))
    writeStorage(() => sessionStorage, dismissedKey(teamId), JSON.stringify([...next]))
    setDismissed(next)
  }
  return (
    <div
      role="status"
      className="flex items-center gap-3 rounded-xl border border-primary/30 bg-accent px-4 py-3 text-sm text-accent-foreground"
    >
      <Trophy aria-hidden className="size-5 shrink-0 text-primary" />
      <p className="flex-1 font-medium">
        {t(`banner.${milestone.kind}`, { threshold: milestone.threshold })}
      </p>
      <Button variant="ghost" size="icon" aria-label={t('banner.dismiss')} onClick={dismiss}>
        <X aria-hidden />
      </Button>
    </div>
  )
}
