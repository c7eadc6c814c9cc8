import { FlaskConical } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { checkAdminSetPassword } from '../../../domain/auth-checks.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import {
  PasswordField,
  SubmitButton,
  useAdminSetPassword,
  useAuthProviders,
  useSession,
} from '../../features/auth/index.ts'
import { message } from '../../i18n/index.ts'
import { useCheckedForm } from '../../lib/checked-form.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { AuthCard } from './auth-layout.tsx'

/** The admin password reset test screen: global admins set a user's password. Nothing prefilled. */
export function TempResetPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('tempReset.title'))
  const session = useSession()
  const providers = useAuthProviders()
  const setPassword = useAdminSetPassword()
  const [done, setDone] = useState<string | null>(null)
  const [formError, setFormError] = useState<string | null>(null)
  const form = useCheckedForm({ email: '', newPassword: '' }, checkAdminSetPassword)
  const { isSubmitting } = form

  const onSubmit = form.handleSubmit(async (input) => {
    setFormError(null)
    setDone(null)
    try {
      await setPassword.mutateAsync(input)
      setDone(input.email)
      form.reset({ email: '', newPassword: '' })
    } catch (error) {
      setFormError(applyServerErrors(form.setError, error, message('auth.newPasswordFailed')))
    }
  })

  const banner = (
    <div className="mb-4 flex gap-2 rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm">
      <FlaskConical aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
      <p>{t('tempReset.testingOnly')}</p>
    </div>
  )

  if (providers.data?.adminPasswordReset === false) {
    return (
      <AuthCard title={t('tempReset.title')}>
        <Alert>{t('tempReset.unavailable')}</Alert>
      </AuthCard>
    )
  }
  if (session.isPending || providers.isPending) {
    return (
      <AuthCard title={t('tempReset.title')}>
        <Spinner label={t('verification.checking')} />
      </AuthCard>
    )
  }
  if (session.data?.globalRole !== 'global_admin') {
    return (
      <AuthCard title={t('tempReset.title')} subtitle={t('tempReset.subtitle')}>
        {banner}
        <Alert tone="error">{session.data ? t('tempReset.adminOnly') : t('tempReset.signInFirst')}</Alert>
        {!session.data && (
          <Button asChild className="mt-4 w-full">
            <Link to="/login-password">{t('tempReset.signIn')}</Link>
          </Button>
        )}
      </AuthCard>
    )
  }

  return (
    <AuthCard title={t('tempReset.title')} subtitle={t('tempReset.subtitle')}>
      {banner}
      <form noValidate onSubmit={onSubmit} className="space-y-4" autoComplete="off">
        {done && <Alert tone="success">{t('tempReset.done', { email: done })}</Alert>}
        {formError && <Alert tone="error">{formError}</Alert>}
        <Field label={t('tempReset.email')} error={form.error('email')}>
          <Input type="email" autoComplete="off" {...form.register('email')} />
        </Field>
        <PasswordField kind="new" label={t('tempReset.newPassword')} form={form} name="newPassword" />
        <SubmitButton pending={isSubmitting} pendingLabel={t('tempReset.submitting')}>
          {t('tempReset.submit')}
        </SubmitButton>
      </form>
    </AuthCard>
  )
}
