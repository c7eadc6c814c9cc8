import { CheckCircle2, CircleSlash } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PageHeader } from '../../components/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Skeleton } from '../../components/ui/skeleton.tsx'
import { useAuthProviders } from '../../features/auth/index.ts'
import { errorText } from '../../lib/api.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

function Status({ label, on, children }: { label: string; on: boolean; children?: ReactNode }) {
  const { t } = useTranslation('mail')
  const Icon = on ? CheckCircle2 : CircleSlash
  return (
    <li className="flex items-start justify-between gap-3 py-2">
      <span className="text-sm">{label}</span>
      <span
        className={`inline-flex items-center gap-1.5 text-sm ${on ? 'text-success' : 'text-muted-foreground'}`}
      >
        <Icon aria-hidden className="size-4" />
        {children ?? (on ? t('setup.on') : t('setup.off'))}
      </span>
    </li>
  )
}

/**
 * /supabase-config (the spec's address for its auth setup page): what this server checks of its
 * own sign-in setup, whether SMTP mail and the Google and Apple providers are configured, with
 * the steps to configure them and the mail templates it sends.
 */
export function MailAuthSetupPage() {
  const { t } = useTranslation('mail')
  useDocumentTitle(t('setup.title'))
  const providers = useAuthProviders()
  const appUrl = providers.data?.appUrl ?? window.location.origin
  const steps = (key: 'setup.mailSteps' | 'setup.googleSteps') =>
    t(key, { returnObjects: true, callback: `${appUrl}/api/auth/callback/google` }) as string[]

  return (
    <>
      <PageHeader
        title={t('setup.title')}
        description={t('setup.description')}
        actions={
          <Button asChild variant="outline">
            <Link to="/email-debug">{t('setup.openDebug')}</Link>
          </Button>
        }
      />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>{t('setup.status')}</CardTitle>
          </CardHeader>
          <CardContent>
            {providers.isPending ? (
              <Skeleton className="h-28" />
            ) : providers.isError ? (
              <Alert tone="error">{errorText(providers.error, '')}</Alert>
            ) : (
              <ul className="divide-y">
                <Status label={t('setup.smtp')} on={providers.data.smtp} />
                <Status label={t('setup.google')} on={providers.data.google} />
                <Status label={t('setup.apple')} on={providers.data.apple} />
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('setup.mailTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="list-decimal space-y-2 pl-5 text-sm">
              {steps('setup.mailSteps').map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('setup.templatesTitle')}</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <p className="text-muted-foreground">{t('setup.templatesText')}</p>
            <div>
              <p className="font-medium">{t('setup.codeTemplate')}</p>
              <p className="text-muted-foreground">{t('setup.codeTemplateText')}</p>
            </div>
            <div>
              <p className="font-medium">{t('setup.resetTemplate')}</p>
              <p className="text-muted-foreground">{t('setup.resetTemplateText')}</p>
            </div>
            <p className="text-muted-foreground">{t('setup.appUrl', { appUrl })}</p>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>{t('setup.googleTitle')}</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="list-decimal space-y-2 pl-5 text-sm break-words">
              {steps('setup.googleSteps').map((step) => (
                <li key={step}>{step}</li>
              ))}
            </ol>
          </CardContent>
        </Card>
      </div>
    </>
  )
}
