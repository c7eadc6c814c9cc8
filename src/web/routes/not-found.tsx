import { Compass } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Button } from '../components/ui/button.tsx'
import { useDocumentTitle } from '../lib/use-document-title.ts'

export function NotFoundPage() {
  const { t } = useTranslation('pages')
  useDocumentTitle(t('notFound.title'))
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center">
      <Compass aria-hidden className="size-10 text-muted-foreground" />
      <p className="text-6xl font-bold tracking-tight text-primary">404</p>
      <h1 className="text-2xl font-semibold">{t('notFound.title')}</h1>
      <p className="max-w-sm text-muted-foreground">{t('notFound.text')}</p>
      <Button asChild>
        <Link to="/">{t('notFound.home')}</Link>
      </Button>
    </main>
  )
}
