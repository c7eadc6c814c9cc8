import { AlertCircle, CheckCircle2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { isInFrame, type Outcome, resolveCallback, useCallbackEffects } from '../../features/auth/index.ts'
import { cn } from '../../lib/cn.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { AuthCard } from './auth-layout.tsx'

/**
 * /auth/callback and /auth/confirm: every outcome of the callback (a provider error in the URL, a
 * recovery link — valid, invalid, no session, new-tab flow — a code or token, or no parameters at
 * all), worked out by `resolveCallback`; this page runs it once and shows the result.
 */
function AuthOutcomePage({ titleKey }: { titleKey: 'callback.title' | 'callback.confirmTitle' }) {
  const { t } = useTranslation('auth')
  useDocumentTitle(t(titleKey))
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const effects = useCallbackEffects()
  const [outcome, setOutcome] = useState<Outcome>({ tone: 'working', text: { key: 'callback.working' } })
  const started = useRef(false)

  useEffect(() => {
    // The recovery token works once: never verify it twice (React runs effects twice in dev).
    if (started.current) return
    started.current = true
    if (isInFrame() && params.get('new_tab') !== 'true') {
      try {
        window.top!.location.href = window.location.href
        setOutcome({ tone: 'working', text: { key: 'callback.leavingFrame' } })
        return
      } catch {
        // the framing page forbids it; finish here
      }
    }
    void resolveCallback(params, effects).then((result) => (result ? setOutcome(result) : window.close()))
  }, [params, effects])

  useEffect(() => {
    const next = outcome.next
    if (!next) return
    const timer = setTimeout(() => {
      if ('close' in next) window.close()
      else navigate(next.to, { replace: true })
    }, next.afterMs)
    return () => clearTimeout(timer)
  }, [outcome, navigate])

  const Icon = outcome.tone === 'error' ? AlertCircle : CheckCircle2
  const text = 'key' in outcome.text ? t(outcome.text.key, outcome.text.params) : outcome.text.message
  return (
    <AuthCard title={outcome.title ? t(outcome.title) : t(titleKey)}>
      <div className="flex flex-col items-center gap-4 py-2 text-center">
        {outcome.tone === 'working' ? (
          <Spinner label={text} />
        ) : (
          <>
            <Icon
              aria-hidden
              className={cn('size-10', outcome.tone === 'error' ? 'text-destructive' : 'text-success')}
            />
            <p role={outcome.tone === 'error' ? 'alert' : 'status'} className="text-sm text-muted-foreground">
              {text}
            </p>
          </>
        )}
        <Button asChild variant="outline" className="w-full">
          <Link to="/login">{t('callback.backToLogin')}</Link>
        </Button>
      </div>
    </AuthCard>
  )
}

export function AuthCallbackPage() {
  return <AuthOutcomePage titleKey="callback.title" />
}

export function AuthConfirmPage() {
  return <AuthOutcomePage titleKey="callback.confirmTitle" />
}
