import { ArrowLeft } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Logo } from '../features/shell/index.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

function LegalPage({ doc }: { doc: 'terms' | 'privacy' }) {
  const { t } = useTranslation('pages')
  useDocumentTitle(t(`${doc}.title`))
  const paragraphs = t(`${doc}.body`, { returnObjects: true }) as string[]
  return (
    <main className="mx-auto max-w-2xl space-y-6 px-4 py-10">
      <Link to="/">
        <Logo />
      </Link>
      <article className="space-y-4">
        <h1 className="text-3xl font-semibold tracking-tight">{t(`${doc}.title`)}</h1>
        <p className="text-sm text-muted-foreground">{t(`${doc}.updated`)}</p>
        {paragraphs.map((text) => (
          <p key={text} className="leading-relaxed">
            {text}
          </p>
        ))}
      </article>
      <Link to="/" className="inline-flex items-center gap-1 text-sm text-primary hover:underline">
        <ArrowLeft className="size-4" />
        {t('legal.back')}
      </Link>
    </main>
  )
}

export const TermsPage = () => <LegalPage doc="terms" />
export const PrivacyPage = () => <LegalPage doc="privacy" />
