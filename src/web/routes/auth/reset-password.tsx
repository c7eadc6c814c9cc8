import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { checkNewPassword } from '../../../domain/auth-checks.ts'
import { DELAYS_MS } from '../../../domain/constants.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import {
  fetchRecoverySession,
  PasswordField,
  RevokeAccessField,
  SubmitButton,
  SuccessStatus,
  useSetRecoveredPassword,
} from '../../features/auth/index.ts'
import { message } from '../../i18n/index.ts'
import { useCheckedForm } from '../../lib/checked-form.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useRedirectAfter } from '../../lib/use-redirect-after.ts'
import { AuthCard } from './auth-layout.tsx'

type State = { step: 'verifying' } | { step: 'invalid' } | { step: 'form'; email: string } | { step: 'done' }

/** Reset password: verifying (about 1.5 s), then invalid or the form, then done. */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('reset.title'))
  const setPassword = useSetRecoveredPassword()
  const [state, setState] = useState<State>({ step: 'verifying' })
  const [formError, setFormError] = useState<string | null>(null)
  const form = useCheckedForm({ password: '', confirmPassword: '', revokeAccess: false }, checkNewPassword)

  useEffect(() => {
    let cancelled = false
    // The check and the spec's short verification pause run together; the longer one decides.
    void Promise.all([
      fetchRecoverySession().catch(() => null),
      new Promise((resolve) => setTimeout(resolve, DELAYS_MS.sessionVerification)),
    ]).then(([recovery]) => {
      if (!cancelled) setState(recovery ? { step: 'form', email: recovery.email } : { step: 'invalid' })
    })
    return () => {
      cancelled = true
    }
  }, [])

  useRedirectAfter(state.step === 'done' ? '/login' : null, DELAYS_MS.resetRedirect)

  const onSubmit = form.handleSubmit(async (input) => {
    setFormError(null)
    try {
      await setPassword.mutateAsync(input)
      setState({ step: 'done' })
    } catch (error) {
      setFormError(applyServerErrors(form.setError, error, message('auth.newPasswordFailed')))
    }
  })

  if (state.step === 'verifying') {
    return (
      <AuthCard title={t('reset.title')}>
        <div className="flex justify-center py-6">
          <Spinner label={t('reset.verifying')} />
        </div>
      </AuthCard>
    )
  }
  if (state.step === 'invalid') {
    return (
      <AuthCard title={t('reset.invalidTitle')}>
        <div className="space-y-4">
          <Alert tone="error">{t('reset.invalidText')}</Alert>
          <Button asChild className="w-full">
            <Link to="/forgot-password">{t('reset.requestNew')}</Link>
          </Button>
        </div>
      </AuthCard>
    )
  }
  if (state.step === 'done') {
    return (
      <AuthCard title={t('reset.doneTitle')}>
        <SuccessStatus text={t('reset.doneText')} />
      </AuthCard>
    )
  }
  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.forAccount', { email: state.email })}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {formError && <Alert tone="error">{formError}</Alert>}
        <PasswordField kind="new" label={t('reset.newPassword')} form={form} name="password" autoFocus />
        <PasswordField kind="repeat" label={t('reset.confirmPassword')} form={form} name="confirmPassword" />
        <RevokeAccessField form={form} />
        <SubmitButton pending={form.isSubmitting} pendingLabel={t('reset.submitting')}>
          {t('reset.submit')}
        </SubmitButton>
      </form>
    </AuthCard>
  )
}
