import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { DELAYS_MS } from '../../../domain/constants.ts'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { useRedirectAfter } from '../../lib/use-redirect-after.ts'
import { AuthCard } from './auth-layout.tsx'

/** The legacy /signup page: sends visitors to /login after 3 s. */
export function LegacySignupPage() {
  const { t } = useTranslation('auth')
  useRedirectAfter('/login', DELAYS_MS.legacySignupRedirect)
  return (
    <AuthCard title={t('legacySignup.title')}>
      <div className="space-y-4">
        <Spinner label={t('legacySignup.text')} />
        <Button asChild variant="outline" className="w-full">
          <Link to="/login">{t('legacySignup.now')}</Link>
        </Button>
      </div>
    </AuthCard>
  )
}
