import { useTranslation } from 'react-i18next'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { Logo } from './logo.tsx'

export function LoadingScreen() {
  const { t } = useTranslation('shell')
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-4">
      <Logo />
      <Spinner label={t('loadingApp')} />
    </div>
  )
}
