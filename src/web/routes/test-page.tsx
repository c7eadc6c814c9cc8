import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Badge } from '../components/ui/badge.tsx'
import { Button } from '../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../components/ui/card.tsx'
import { Logo } from '../features/shell/index.ts'
import { DebugLogPanel, useHealth } from '../features/system/index.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

function Crash(): never {
  throw new Error('Intentional render failure from the diagnostics page')
}

/** /test: a simple diagnostic page (public), also used to check the error fallback; with this tab's debug log. */
export function TestPage() {
  const { t } = useTranslation('pages')
  useDocumentTitle(t('test.title'))
  const [crash, setCrash] = useState(false)
  const health = useHealth()
  const rows: [string, string][] = health.data
    ? [
        [t('test.version'), health.data.version],
        [t('test.database'), health.data.database.kind],
        [t('test.latency'), `${health.data.database.latencyMs} ms`],
      ]
    : []
  return (
    <main className="mx-auto max-w-lg space-y-6 px-4 py-10">
      <Link to="/">
        <Logo />
      </Link>
      <Card>
        <CardHeader>
          <CardTitle as="h1">{t('test.title')}</CardTitle>
          <p className="text-sm text-muted-foreground">{t('test.text')}</p>
        </CardHeader>
        <CardContent className="space-y-3">
          <div className="flex items-center justify-between">
            <span className="text-sm font-medium">{t('test.api')}</span>
            {health.isPending ? (
              <Badge>{t('test.checking')}</Badge>
            ) : health.isError ? (
              <Badge variant="destructive">{t('test.failed')}</Badge>
            ) : (
              <Badge variant="success">{t('test.ok')}</Badge>
            )}
          </div>
          <dl className="divide-y text-sm">
            {rows.map(([label, value]) => (
              <div key={label} className="flex justify-between py-2">
                <dt className="text-muted-foreground">{label}</dt>
                <dd className="font-mono">{value}</dd>
              </div>
            ))}
          </dl>
          <div className="space-y-1 border-t pt-3">
            <Button variant="outline" size="sm" onClick={() => setCrash(true)}>
              {t('test.triggerError')}
            </Button>
            <p className="text-xs text-muted-foreground">{t('test.triggerErrorHint')}</p>
          </div>
          {crash && <Crash />}
        </CardContent>
      </Card>
      <DebugLogPanel />
    </main>
  )
}
