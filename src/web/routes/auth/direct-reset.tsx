import { TriangleAlert } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { checkDirectReset } from '../../../domain/auth-checks.ts'
import { DELAYS_MS } from '../../../domain/constants.ts'
import { Alert } from '../../components/ui/alert.tsx'
import {
  EmailField,
  PasswordField,
  RevokeAccessField,
  SubmitButton,
  SuccessStatus,
  useDirectReset,
} from '../../features/auth/index.ts'
import { message } from '../../i18n/index.ts'
import { ApiError } from '../../lib/api.ts'
import { useCheckedForm } from '../../lib/checked-form.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useRedirectAfter } from '../../lib/use-redirect-after.ts'
import { AuthCard } from './auth-layout.tsx'

/** The direct reset: the current password instead of a mail; checked on the server. */
export function DirectResetPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('directReset.title'))
  const directReset = useDirectReset()
  const [done, setDone] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const form = useCheckedForm(
    { email: '', currentPassword: '', newPassword: '', confirmPassword: '', revokeAccess: false },
    checkDirectReset,
  )
  const { isSubmitting } = form

  useRedirectAfter(done ? '/login-password' : null, DELAYS_MS.resetRedirect)

  const onSubmit = form.handleSubmit(async (input) => {
    setFormError(null)
    try {
      await directReset.mutateAsync(input)
      setDone(true)
    } catch (error) {
      const fallback =
        error instanceof ApiError && error.status >= 500 ? 'auth.newPasswordFailed' : 'error.unexpected'
      setFormError(applyServerErrors(form.setError, error, message(fallback)))
    }
  })

  if (done) {
    return (
      <AuthCard title={t('directReset.doneTitle')}>
        <SuccessStatus text={t('directReset.doneText')} />
      </AuthCard>
    )
  }

  return (
    <AuthCard
      title={t('directReset.title')}
      subtitle={t('directReset.subtitle')}
      footer={
        <Link to="/forgot-password" className="font-medium text-primary hover:underline">
          {t('directReset.useEmail')}
        </Link>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <div className="flex gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
          <p>{t('directReset.temporary')}</p>
        </div>
        {formError && <Alert tone="error">{formError}</Alert>}
        <EmailField form={form} />
        <PasswordField
          kind="current"
          label={t('directReset.currentPassword')}
          form={form}
          name="currentPassword"
        />
        <PasswordField kind="new" label={t('directReset.newPassword')} form={form} name="newPassword" />
        <PasswordField
          kind="repeat"
          label={t('directReset.confirmPassword')}
          form={form}
          name="confirmPassword"
        />
        <RevokeAccessField form={form} />
        <SubmitButton pending={isSubmitting} pendingLabel={t('directReset.submitting')}>
          {t('directReset.submit')}
        </SubmitButton>
      </form>
    </AuthCard>
  )
}
