import { Construction, type LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
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

function Placeholder({
  title,
  icon,
  heading,
  text,
  actions,
}: {
  title: string
  icon: LucideIcon
  heading: string
  text: string
  actions?: ReactNode
}) {
  return (
    <>
      <PageHeader title={title} actions={actions} />
      <EmptyState icon={icon} title={heading} text={text} />
    </>
  )
}

/** The spec's own placeholder pages (/billing, /help; the settings pages were built since). */
export function NotImplementedPage({ screen, actions }: { screen: ScreenKey; actions?: ReactNode }) {
  const { t } = useTranslation('pages')
  return (
    <Placeholder
      actions={actions}
      title={useScreenTitle(screen)}
      icon={Construction}
      heading={t('placeholder.notImplemented')}
      text={t('placeholder.notImplementedText')}
    />
  )
}

/** /help: a route of its own, loaded when visited. */
export const HelpPlaceholderPage = () => <NotImplementedPage screen="help" />
