import { WifiOff } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button.tsx'
import { Logo } from './logo.tsx'

/**
 * "Network failure during auth check": the session check could not reach the server (or the
 * server failed), so whether the user is signed in is unknown. Instead of sending them to sign in,
 * the page says so and offers to check again.
 */
export function NetworkIssueScreen({ onRetry, retrying }: { onRetry: () => void; retrying: boolean }) {
  const { t } = useTranslation('shell')
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center">
      <Logo />
      <div role="alert" className="flex max-w-md flex-col items-center gap-3">
        <WifiOff aria-hidden className="size-8 text-muted-foreground" />
        <h1 className="text-lg font-semibold">{t('network.title')}</h1>
        <p className="text-sm text-muted-foreground">{t('network.text')}</p>
      </div>
      <Button onClick={onRetry} disabled={retrying}>
        {retrying ? t('network.retrying') : t('network.retry')}
      </Button>
    </main>
  )
}
