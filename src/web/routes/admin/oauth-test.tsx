import { useTranslation } from 'react-i18next'
import { PageHeader } from '../../components/page-header.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import {
  currentOAuthStrategy,
  isHostedPreview,
  isInFrame,
  type OAuthStrategy,
  ProviderSignInButton,
  useAuthProviders,
} from '../../features/auth/index.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

const strategies: OAuthStrategy[] = ['popup', 'same-window', 'redirect']

/** OAuth strategy test (admins): the environment, the strategy the sign-in page picks, and every strategy to try. */
export function OAuthTestPage() {
  const { t } = useTranslation('mail')
  useDocumentTitle(t('oauthTest.title'))
  const mobile =
    window.matchMedia('(pointer: coarse)').matches && window.matchMedia('(max-width: 768px)').matches
  const yesNo = (value: boolean) => (value ? t('oauthTest.yes') : t('oauthTest.no'))
  const preview = useAuthProviders().data?.preview
  return (
    <>
      <PageHeader title={t('oauthTest.title')} description={t('oauthTest.description')} />
      <Card className="mb-6">
        <CardHeader>
          <CardTitle>{t('oauthTest.environment')}</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-[16rem_1fr]">
            <dt className="text-muted-foreground">{t('oauthTest.inFrame')}</dt>
            <dd>{yesNo(isInFrame())}</dd>
            <dt className="text-muted-foreground">{t('oauthTest.mobile')}</dt>
            <dd>{yesNo(mobile)}</dd>
            <dt className="text-muted-foreground">{t('oauthTest.hostedPreview')}</dt>
            <dd>{yesNo(isHostedPreview(preview, window.location.origin))}</dd>
            <dt className="text-muted-foreground">{t('oauthTest.chosen')}</dt>
            <dd>{t(`oauthTest.strategies.${currentOAuthStrategy(preview)}`)}</dd>
          </dl>
        </CardContent>
      </Card>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-3">
        {strategies.map((strategy) => (
          <Card key={strategy}>
            <CardHeader>
              <CardTitle>{t(`oauthTest.strategies.${strategy}`)}</CardTitle>
              <CardDescription>{t('oauthTest.note')}</CardDescription>
            </CardHeader>
            <CardContent className="space-y-3">
              <ProviderSignInButton provider="google" strategy={strategy} returnTo="/oauth-test" />
              <ProviderSignInButton provider="apple" strategy={strategy} returnTo="/oauth-test" />
            </CardContent>
          </Card>
        ))}
      </div>
    </>
  )
}
