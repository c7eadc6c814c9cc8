import { useTranslation } from 'react-i18next'
import { PageHeader } from '../../components/page-header.tsx'
import { DeleteAccountCard, ExportDataCard } from '../../features/data-rights/index.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

/** /settings/data: the user's export and account deletion, apart from everyday profile settings. */
export function DataSettingsPage() {
  const { t } = useTranslation('account')
  useDocumentTitle(t('settings.pages.data'))
  return (
    <>
      <PageHeader title={t('settings.pages.data')} description={t('settings.dataText')} />
      <div className="space-y-6">
        <ExportDataCard />
        <DeleteAccountCard />
      </div>
    </>
  )
}
