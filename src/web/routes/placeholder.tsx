import { Construction } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { EmptyState } from '../components/empty-state.tsx'
import { PageHeader } from '../components/page-header.tsx'
import type { Resources } from '../i18n/resources.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'

export type ScreenKey = keyof Resources['pages']['screens']

/** A screen's name from the route table's titles, also shown as the browser tab's title. */
export function useScreenTitle(screen: ScreenKey): string {
  const { t } = useTranslation('pages')
  const title = t(`screens.${screen}`)
  useDocumentTitle(title)
  return title
}

/** /help: the spec's own placeholder page, a route of its own, loaded when visited. */
export function HelpPlaceholderPage() {
  const { t } = useTranslation('pages')
  return (
    <>
      <PageHeader title={useScreenTitle('help')} />
      <EmptyState
        icon={Construction}
        title={t('placeholder.notImplemented')}
        text={t('placeholder.notImplementedText')}
      />
    </>
  )
}
