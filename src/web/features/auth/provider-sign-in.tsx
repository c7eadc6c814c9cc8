import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { OAuthProvider } from '../../../domain/auth.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { useAuthProviders } from './account-auth.ts'
import { currentOAuthStrategy, type OAuthFailure, type OAuthStrategy, signInWithProvider } from './oauth.ts'
import { sessionQuery } from './session.ts'

const providerNames: Record<OAuthProvider, string> = { google: 'Google', apple: 'Apple' }

function GoogleMark() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-4">
      <path
        fill="#4285F4"
        d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.3-2.1 3.5-5.2 3.5-8.7Z"
      />
      <path
        fill="#34A853"
        d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24Z"
      />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6H1.3a12 12 0 0 0 0 10.8l4-3.1Z" />
      <path
        fill="#EA4335"
        d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9Z"
      />
    </svg>
  )
}

/**
 * "Continue with Google" (or Apple): explains an unconfigured provider instead of failing, and
 * runs the sign-in with the spec's strategy (popup on desktop, same window on phones, redirect in
 * a frame or a hosted preview), showing every OAuth error message the spec lists.
 */
export function ProviderSignInButton({
  provider,
  returnTo,
  strategy,
}: {
  provider: OAuthProvider
  returnTo: string
  /** Forces a strategy (the OAuth test page); otherwise chosen from the environment. */
  strategy?: OAuthStrategy
}) {
  const { t } = useTranslation('auth')
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const providers = useAuthProviders()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const name = providerNames[provider]
  const configured = providers.data?.[provider] ?? false

  const failureText = (failure: OAuthFailure) => {
    switch (failure.kind) {
      case 'start':
        return t('google.failed', { provider: name, message: failure.message })
      case 'noUrl':
        return t('google.noUrl')
      case 'popupBlocked':
        return t('google.popupBlocked')
      case 'cancelled':
        return t('google.cancelled')
      case 'timeout':
        return t('google.timeout')
      default:
        return t('google.unknownStrategy')
    }
  }

  const start = async () => {
    setError(null)
    setBusy(true)
    const hasSession = async () => (await queryClient.fetchQuery({ ...sessionQuery, staleTime: 0 })) !== null
    const result = await signInWithProvider(
      provider,
      strategy ?? currentOAuthStrategy(providers.data?.preview),
      hasSession,
      returnTo,
    )
    setBusy(false)
    if (result.ok) navigate(returnTo, { replace: true })
    else setError(failureText(result.failure))
  }

  return (
    <div className="space-y-2">
      <Button
        variant="outline"
        className="w-full"
        disabled={busy || providers.isPending || !configured}
        aria-describedby={!configured && providers.isSuccess ? `${provider}-not-configured` : undefined}
        onClick={() => void start()}
      >
        {provider === 'google' && <GoogleMark />}
        {busy
          ? t('google.working', { provider: name })
          : t(provider === 'google' ? 'google.button' : 'google.apple')}
      </Button>
      {providers.isSuccess && !configured && (
        <p id={`${provider}-not-configured`} className="text-center text-xs text-muted-foreground">
          {t('google.notConfigured', { provider: name })}
        </p>
      )}
      {error && <Alert tone="error">{error}</Alert>}
    </div>
  )
}
