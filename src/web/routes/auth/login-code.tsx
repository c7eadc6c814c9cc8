import { KeyRound } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useDocumentTitle } from '../../components/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { AuthCard } from './auth-layout.tsx'

export function LoginCodePage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('codeLogin.title'))
  return (
    <AuthCard title={t('codeLogin.title')} subtitle={t('codeLogin.subtitle')}>
      <div className="space-y-4">
        <Alert>{t('codeLogin.building')}</Alert>
        <Button asChild className="w-full">
          <Link to="/login-password">
            <KeyRound />
            {t('codeLogin.usePassword')}
          </Link>
        </Button>
      </div>
    </AuthCard>
  )
}
