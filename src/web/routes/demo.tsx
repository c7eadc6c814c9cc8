import { Download, FlaskConical, Globe, RefreshCw, Sparkles } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '../components/page-header.tsx'
import { Alert } from '../components/ui/alert.tsx'
import { Badge } from '../components/ui/badge.tsx'
import { Button } from '../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../components/ui/card.tsx'
import { Dialog, DialogContent } from '../components/ui/dialog.tsx'
import { toast } from '../components/ui/toast.tsx'
import { formatNumber } from '../lib/format.ts'
import { useScreenTitle } from './placeholder.tsx'

/** The demo's fixed sample figures (the spec's demo is hard-coded; nothing here is measured). */
const SAMPLE = {
  metrics: { promptVisits: 1284, compatibilityScore: 87, qualityScore: 92, activeWebsites: 24 },
  traffic: [
    { day: 'Mon', visits: 142 },
    { day: 'Tue', visits: 168 },
    { day: 'Wed', visits: 155 },
    { day: 'Thu', visits: 201 },
    { day: 'Fri', visits: 189 },
    { day: 'Sat', visits: 97 },
    { day: 'Sun', visits: 112 },
  ],
  overall: { score: 89, parts: { visibility: 91, accuracy: 86, freshness: 90 } },
  websites: [
    { site: 'docs.example.com', visits: 412, score: 94 },
    { site: 'blog.example.com', visits: 318, score: 88 },
    { site: 'shop.example.com', visits: 276, score: 81 },
    { site: 'help.example.com', visits: 178, score: 90 },
  ],
} as const

/** /demo: the spec's static AI-search monitoring dashboard, plainly marked as sample data. */
export function DemoPage() {
  const title = useScreenTitle('demo')
  const { t } = useTranslation('admin')
  const [analysisOpen, setAnalysisOpen] = useState(false)
  const max = Math.max(...SAMPLE.traffic.map((day) => day.visits))
  const m = SAMPLE.metrics

  const exportReport = () => {
    const lines = [
      `# ${t('demo.reportTitle')}`,
      '',
      `> ${t('demo.notice')}`,
      '',
      `- ${t('demo.metrics.promptVisits')}: ${m.promptVisits}`,
      `- ${t('demo.metrics.compatibilityScore')}: ${m.compatibilityScore}%`,
      `- ${t('demo.metrics.qualityScore')}: ${m.qualityScore}/100`,
      `- ${t('demo.metrics.activeWebsites')}: ${m.activeWebsites}`,
      `- ${t('demo.overallScore')}: ${SAMPLE.overall.score}/100`,
      '',
      `## ${t('demo.trafficTrends')}`,
      '',
      ...SAMPLE.traffic.map((day) => `- ${t(`demo.days.${day.day}`)}: ${day.visits}`),
      '',
      `## ${t('demo.websiteInsights')}`,
      '',
      ...SAMPLE.websites.map((site) => `- ${site.site}: ${site.visits} · ${site.score}/100`),
    ]
    const url = URL.createObjectURL(
      new Blob([`${lines.join('\n')}\n`], { type: 'text/markdown;charset=utf-8' }),
    )
    const link = document.createElement('a')
    link.href = url
    link.download = 'demo-report.md'
    link.click()
    URL.revokeObjectURL(url)
  }

  return (
    <>
      <PageHeader
        title={title}
        description={t('demo.description')}
        actions={
          <>
            <Button
              variant="outline"
              onClick={() => toast({ title: t('demo.refreshed'), description: t('demo.notice') })}
            >
              <RefreshCw />
              {t('demo.refresh')}
            </Button>
            <Button variant="outline" onClick={exportReport}>
              <Download />
              {t('demo.export')}
            </Button>
            <Button onClick={() => setAnalysisOpen(true)}>
              <Sparkles />
              {t('demo.analysis')}
            </Button>
          </>
        }
      />
      <Alert tone="info" title={t('demo.noticeTitle')} className="mb-6">
        {t('demo.notice')}
      </Alert>
      <section aria-labelledby="demo-metrics" className="space-y-3">
        <h2 id="demo-metrics" className="text-lg font-semibold">
          {t('demo.todaysMetrics')}
        </h2>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {(
            [
              ['promptVisits', formatNumber(m.promptVisits)],
              ['compatibilityScore', `${m.compatibilityScore}%`],
              ['qualityScore', `${m.qualityScore}/100`],
              ['activeWebsites', String(m.activeWebsites)],
            ] as const
          ).map(([key, value]) => (
            <Card key={key}>
              <CardContent className="p-5">
                <dl>
                  <dt className="text-sm text-muted-foreground">{t(`demo.metrics.${key}`)}</dt>
                  <dd className="text-3xl font-semibold tabular-nums">{value}</dd>
                </dl>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>
      <div className="mt-6 grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle>{t('demo.trafficTrends')}</CardTitle>
            <CardDescription>{t('demo.trafficHint')}</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="space-y-2 text-sm">
              {SAMPLE.traffic.map((day) => (
                <li key={day.day} className="grid grid-cols-[3rem_minmax(0,1fr)_3rem] items-center gap-3">
                  <span className="text-muted-foreground">{t(`demo.days.${day.day}`)}</span>
                  <span aria-hidden className="h-3 rounded bg-muted">
                    <span
                      className="block h-3 rounded bg-primary"
                      style={{ width: `${(day.visits / max) * 100}%` }}
                    />
                  </span>
                  <span className="text-right tabular-nums">{day.visits}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('demo.overallScore')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3">
            <p className="text-5xl font-semibold tabular-nums">
              {SAMPLE.overall.score}
              <span className="text-lg text-muted-foreground">/100</span>
            </p>
            <dl className="divide-y text-sm">
              {(Object.entries(SAMPLE.overall.parts) as [keyof typeof SAMPLE.overall.parts, number][]).map(
                ([key, value]) => (
                  <div key={key} className="flex justify-between py-1.5">
                    <dt className="text-muted-foreground">{t(`demo.parts.${key}`)}</dt>
                    <dd className="tabular-nums">{value}</dd>
                  </div>
                ),
              )}
            </dl>
          </CardContent>
        </Card>
      </div>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle>{t('demo.websiteInsights')}</CardTitle>
        </CardHeader>
        <CardContent>
          <ul className="divide-y text-sm">
            {SAMPLE.websites.map((site) => (
              <li key={site.site} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
                <span className="inline-flex items-center gap-2 font-medium">
                  <Globe aria-hidden className="size-4 text-muted-foreground" />
                  {site.site}
                </span>
                <span className="flex items-center gap-3 text-muted-foreground">
                  {t('demo.visits', { count: site.visits })}
                  <Badge variant={site.score >= 90 ? 'success' : 'default'}>{site.score}/100</Badge>
                </span>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
      <Dialog open={analysisOpen} onOpenChange={setAnalysisOpen}>
        {analysisOpen && (
          <DialogContent title={t('demo.analysisTitle')} description={t('demo.analysisNotice')}>
            <div className="flex gap-3 text-sm">
              <FlaskConical aria-hidden className="mt-0.5 size-5 shrink-0 text-muted-foreground" />
              <p>{t('demo.analysisText')}</p>
            </div>
          </DialogContent>
        )}
      </Dialog>
    </>
  )
}
