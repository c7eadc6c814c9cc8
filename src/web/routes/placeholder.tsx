import { Construction, Hammer } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../components/empty-state.tsx'
import { PageHeader, useDocumentTitle } from '../components/page-header.tsx'
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
      <EmptyState
        icon={Hammer}
        title={t('placeholder.building')}
        text={t('placeholder.buildingText', { screen: title })}
      />
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
      <EmptyState
        icon={Construction}
        title={t('placeholder.notImplemented')}
        text={t('placeholder.notImplementedText')}
      />
    </>
  )
}
