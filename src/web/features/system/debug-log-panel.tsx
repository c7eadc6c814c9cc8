import { Check, Copy, Trash2 } from 'lucide-react'
import { useSyncExternalStore } from 'react'
import { useTranslation } from 'react-i18next'
import { DEBUG_LOG_ENTRIES } from '../../../domain/constants.ts'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { useCopy } from '../../lib/clipboard.ts'
import { type DebugLevel, debugLog, debugLogText } from '../../lib/debug-log.ts'
import { formatTime } from '../../lib/format.ts'

const levelVariant = {
  debug: 'outline',
  info: 'default',
  warn: 'warning',
  error: 'destructive',
} as const satisfies Record<DebugLevel, string>

/**
 * The debug log of this tab (lib/debug-log.ts) on the diagnostics pages: the last 100 entries,
 * newest first, redacted, with Copy (a text to paste into a support request) and Clear.
 */
export function DebugLogPanel() {
  const { t } = useTranslation('pages')
  const entries = useSyncExternalStore(debugLog.subscribe, debugLog.entries)
  const { copy, copied } = useCopy()
  const copyLog = async () => {
    const text = debugLogText(entries, {
      now: new Date(),
      page: window.location.href,
      agent: navigator.userAgent,
    })
    if (!(await copy(text))) toast({ title: t('debugLog.copyFailed'), tone: 'error' })
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle as="h2">{t('debugLog.title')}</CardTitle>
        <CardDescription>{t('debugLog.description', { count: DEBUG_LOG_ENTRIES })}</CardDescription>
        {/* Below the text, not beside it: the public diagnostics page is narrow. */}
        <div className="flex flex-wrap gap-2 pt-2">
          <Button variant="outline" size="sm" onClick={() => void copyLog()}>
            {copied ? <Check /> : <Copy />}
            {copied ? t('debugLog.copied') : t('debugLog.copy')}
          </Button>
          <Button variant="ghost" size="sm" disabled={entries.length === 0} onClick={() => debugLog.clear()}>
            <Trash2 />
            {t('debugLog.clear')}
          </Button>
        </div>
      </CardHeader>
      <CardContent>
        {entries.length === 0 ? (
          <p className="rounded-lg border border-dashed py-6 text-center text-sm text-muted-foreground">
            {t('debugLog.empty')}
          </p>
        ) : (
          <ol
            aria-label={t('debugLog.entries')}
            className="max-h-80 divide-y overflow-y-auto rounded-lg border text-xs"
          >
            {[...entries].reverse().map((entry) => (
              <li key={entry.id} data-testid="debug-log-entry" className="flex items-start gap-2 px-3 py-2">
                <time dateTime={entry.at} className="shrink-0 font-mono text-muted-foreground tabular-nums">
                  {formatTime(entry.at)}
                </time>
                <Badge variant={levelVariant[entry.level]} className="shrink-0 uppercase">
                  {t(`debugLog.levels.${entry.level}`)}
                </Badge>
                <span className="min-w-0 font-mono break-words">{entry.message}</span>
              </li>
            ))}
          </ol>
        )}
      </CardContent>
    </Card>
  )
}
