import { Construction, Hammer } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { PageHeader, useDocumentTitle } from '../components/page-header.tsx'
import { Card } from '../components/ui/card.tsx'
import type { Resources } from '../i18n/resources.ts'

export type ScreenKey = keyof Resources['pages']['screens']

/** A screen that a later release fills: says so plainly instead of pretending to work. */
export function ScreenPlaceholder({ screen }: { screen: ScreenKey }) {
  const { t } = useTranslation('pages')
  const title = t(`screens.${screen}`)
  useDocumentTitle(title)
  return (
    <>
      <PageHeader title={title} />
      <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
        <Hammer aria-hidden className="size-8 text-muted-foreground" />
        <h2 className="text-lg font-semibold">{t('placeholder.building')}</h2>
        <p className="max-w-md text-sm text-muted-foreground">
          {t('placeholder.buildingText', { screen: title })}
        </p>
      </Card>
    </>
  )
}

/** The spec's own placeholder pages (/settings, /billing, /settings/api, /settings/webhooks, /help). */
export function NotImplementedPage({ screen }: { screen: ScreenKey }) {
  const { t } = useTranslation('pages')
  const title = t(`screens.${screen}`)
  useDocumentTitle(title)
  return (
    <>
      <PageHeader title={title} />
      <Card className="flex flex-col items-center gap-3 px-6 py-14 text-center">
        <Construction aria-hidden className="size-8 text-muted-foreground" />
        <h2 className="text-lg font-semibold">{t('placeholder.notImplemented')}</h2>
        <p className="max-w-md text-sm text-muted-foreground">{t('placeholder.notImplementedText')}</p>
      </Card>
    </>
  )
}
