import { useQueryClient } from '@tanstack/react-query'
import { AlertCircle, CheckCircle2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { DEFAULT_POST_AUTH_PATH, DELAYS_MS } from '../../../domain/constants.ts'
import { useDocumentTitle } from '../../components/page-header.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { fetchRecoverySession, verifyRecoveryToken } from '../../features/auth/account-auth.ts'
import { isInFrame, notifyOpenerIfPopup, takeOAuthReturnPath } from '../../features/auth/oauth.ts'
import {
  AUTH_SUCCESS_MESSAGE,
  type AuthSuccessMessage,
  safeNextPath,
} from '../../features/auth/recovery-messages.ts'
import { sessionQuery } from '../../features/auth/session.ts'
import { ApiError } from '../../lib/api.ts'
import { cn } from '../../lib/cn.ts'
import { AuthCard } from './auth-layout.tsx'

interface Outcome {
  tone: 'working' | 'success' | 'error'
  title: string
  text: string
  /** Where to go, and after how long (§9 delays); `close` closes the tab instead. */
  next?: { to: string; afterMs: number } | { close: true; afterMs: number }
}

/** Reasons the server puts in `?error=` that deserve more than the raw code. */
const knownReasons: Record<string, string> = { account_not_linked: 'callback.notLinked' }

/**
 * /auth/callback and /auth/confirm: every outcome of §4 — a provider error in the URL, a recovery
 * token (valid, invalid, no session, new-tab flow), a code or token, or no parameters at all.
 */
function AuthOutcomePage({ titleKey }: { titleKey: 'callback.title' | 'callback.confirmTitle' }) {
  const { t } = useTranslation('auth')
  useDocumentTitle(t(titleKey))
  const [params] = useSearchParams()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [outcome, setOutcome] = useState<Outcome>({
    tone: 'working',
    title: t(titleKey),
    text: t('callback.working'),
  })
  const started = useRef(false)

  useEffect(() => {
    // The recovery token works once: never verify it twice (React runs effects twice in dev).
    if (started.current) return
    started.current = true
    const newTab = params.get('new_tab') === 'true'
    if (isInFrame() && !newTab) {
      try {
        window.top!.location.href = window.location.href
        setOutcome({ tone: 'working', title: t(titleKey), text: t('callback.leavingFrame') })
        return
      } catch {
        // the framing page forbids it; finish here
      }
    }
    const session = async () => (await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 })) !== null
    const toLogin = (afterMs: number) => ({ to: '/login', afterMs })
    void (async () => {
      const providerError = params.get('error') ?? params.get('error_description')
      if (providerError) {
        const reasonKey = knownReasons[providerError]
        const reason = params.get('error_description') ?? providerError
        setOutcome({
          tone: 'error',
          title: t('callback.failedTitle'),
          text: reasonKey ? t(reasonKey as 'callback.notLinked') : t('callback.failed', { reason }),
          next: toLogin(DELAYS_MS.callbackError),
        })
        return
      }
      const tokenHash = params.get('token_hash')
      if (tokenHash && params.get('type') === 'recovery') {
        const next = safeNextPath(params.get('next'))
        try {
          await verifyRecoveryToken(tokenHash)
        } catch (error) {
          const invalid = error instanceof ApiError && error.code === 'validation'
          setOutcome({
            tone: 'error',
            title: t(invalid ? 'callback.resetInvalidTitle' : 'callback.resetSessionErrorTitle'),
            text: invalid && error instanceof ApiError ? error.message : t('callback.resetSessionError'),
            next: { to: '/forgot-password', afterMs: DELAYS_MS.callbackError },
          })
          return
        }
        const recovery = await fetchRecoverySession().catch(() => null)
        if (!recovery) {
          setOutcome({
            tone: 'error',
            title: t('callback.resetSessionErrorTitle'),
            text: t('callback.resetSessionError'),
            next: { to: '/forgot-password', afterMs: DELAYS_MS.callbackError },
          })
          return
        }
        const opener = window.opener as Window | null
        if (newTab && opener) {
          const data: AuthSuccessMessage = {
            type: AUTH_SUCCESS_MESSAGE,
            action: 'password_reset_verified',
            nextUrl: next,
          }
          opener.postMessage(data, window.location.origin)
          setOutcome({
            tone: 'success',
            title: t('callback.resetVerifiedTitle'),
            text: t('callback.resetVerifiedNewTab'),
            next: { close: true, afterMs: DELAYS_MS.tabClose },
          })
          return
        }
        setOutcome({
          tone: 'success',
          title: t('callback.resetVerifiedTitle'),
          text: t('callback.resetVerified'),
          next: { to: next, afterMs: DELAYS_MS.callbackSuccess },
        })
        return
      }
      // A provider sign-in came back (in a popup: hand over to the opener and close).
      if (notifyOpenerIfPopup()) {
        window.close()
        return
      }
      const destination = takeOAuthReturnPath() ?? DEFAULT_POST_AUTH_PATH
      if (params.has('code') || params.has('access_token')) {
        let signedIn: boolean
        try {
          signedIn = await session()
        } catch (error) {
          setOutcome({
            tone: 'error',
            title: t('callback.errorTitle'),
            text: error instanceof ApiError ? error.message : String(error),
            next: toLogin(DELAYS_MS.callbackExchangeError),
          })
          return
        }
        setOutcome(
          signedIn
            ? {
                tone: 'success',
                title: t('callback.welcome'),
                text: t('callback.welcomeText'),
                next: { to: destination, afterMs: DELAYS_MS.callbackSuccess },
              }
            : {
                tone: 'error',
                title: t('callback.incompleteTitle'),
                text: t('callback.incomplete'),
                next: toLogin(DELAYS_MS.callbackError),
              },
        )
        return
      }
      const signedIn = await session().catch(() => false)
      setOutcome(
        signedIn
          ? {
              tone: 'success',
              title: t('callback.welcome'),
              text: t('callback.signedIn'),
              next: { to: destination, afterMs: DELAYS_MS.callbackSuccess },
            }
          : {
              tone: 'error',
              title: t('callback.incompleteTitle'),
              text: t('callback.notSignedIn'),
              next: toLogin(DELAYS_MS.callbackError),
            },
      )
    })()
  }, [params, queryClient, t, titleKey])

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
  return (
    <AuthCard title={outcome.title}>
      <div className="flex flex-col items-center gap-4 py-2 text-center">
        {outcome.tone === 'working' ? (
          <Spinner label={outcome.text} />
        ) : (
          <>
            <Icon
              aria-hidden
              className={cn('size-10', outcome.tone === 'error' ? 'text-destructive' : 'text-success')}
            />
            <p role={outcome.tone === 'error' ? 'alert' : 'status'} className="text-sm text-muted-foreground">
              {outcome.text}
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
