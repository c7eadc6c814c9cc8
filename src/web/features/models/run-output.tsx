import { useTranslation } from 'react-i18next'
import { Alert } from '../../components/ui/alert.tsx'
import { cn } from '../../lib/cn.ts'
import { formatNumber } from '../../lib/format.ts'
import type { RunState } from './use-run.ts'

/** A duration in milliseconds, in the UI's language. */
function Milliseconds({ value }: { value: number | null }) {
  const { t } = useTranslation('models')
  return <>{value === null ? '—' : t('playground.ms', { value: formatNumber(value) })}</>
}

/**
 * The answer as it streams in, then what the run took (time to first token, total, tokens), or
 * why it ended early. The status line is a live region (announced once per change, not per piece
 * of text); an error is an alert.
 */
export function RunOutput({ state, answerId }: { state: RunState; answerId: string }) {
  const { t } = useTranslation('models')
  const running = state.status === 'running'
  const statusText =
    state.status === 'running'
      ? t('playground.running')
      : state.status === 'done'
        ? t('playground.done')
        : state.status === 'stopped'
          ? t('playground.stopped', { value: formatNumber(state.elapsedMs) })
          : state.status === 'failed'
            ? t('playground.failed')
            : ''
  return (
    <div className="min-w-0 space-y-3">
      <div className="flex items-center justify-between gap-2">
        <p id={answerId} className="text-sm font-medium">
          {t('playground.answer')}
        </p>
        <p role="status" className="text-xs text-muted-foreground">
          {statusText}
        </p>
      </div>
      <section
        aria-labelledby={answerId}
        aria-busy={running}
        className={cn(
          'min-h-32 overflow-x-auto rounded-md border bg-muted/30 p-3 text-sm whitespace-pre-wrap break-words',
          state.status === 'idle' && 'text-muted-foreground',
        )}
      >
        {state.status === 'idle' ? t('playground.idle') : state.text}
        {running && (
          <span
            aria-hidden
            className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-foreground/60 align-middle"
          />
        )}
      </section>
      {state.status === 'failed' && (
        <Alert tone="error" title={state.error.message || t('playground.failed')} />
      )}
      {state.status === 'done' && (
        <section aria-label={t('playground.figures')} className="space-y-3">
          {state.result.finishReason === 'length' && <Alert tone="info" title={t('playground.cutOff')} />}
          <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="text-muted-foreground">{t('playground.firstToken')}</dt>
            <dd className="tabular-nums">
              <Milliseconds value={state.result.timeToFirstTokenMs} />
            </dd>
            <dt className="text-muted-foreground">{t('playground.total')}</dt>
            <dd className="tabular-nums">
              <Milliseconds value={state.result.durationMs} />
            </dd>
            <dt className="text-muted-foreground">{t('playground.inputTokens')}</dt>
            <dd className="tabular-nums">
              {state.result.usage.inputTokens === null ? '—' : formatNumber(state.result.usage.inputTokens)}
            </dd>
            <dt className="text-muted-foreground">{t('playground.outputTokens')}</dt>
            <dd className="tabular-nums">
              {state.result.usage.outputTokens === null ? '—' : formatNumber(state.result.usage.outputTokens)}
            </dd>
            <dt className="text-muted-foreground">{t('playground.model')}</dt>
            <dd className="font-mono break-all">{state.result.model}</dd>
            <dt className="text-muted-foreground">{t('playground.version')}</dt>
            <dd>
              {t(state.result.draft ? 'playground.draftOf' : 'playground.versionNumber', {
                number: state.result.versionNumber,
              })}
            </dd>
          </dl>
        </section>
      )}
    </div>
  )
}
