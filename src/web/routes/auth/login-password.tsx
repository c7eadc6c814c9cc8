import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { checkSignIn } from '../../../domain/auth-checks.ts'
import { Alert } from '../../components/ui/alert.tsx'
import {
  EmailField,
  PasswordField,
  SubmitButton,
  useAuthCarry,
  usePostAuthPath,
  useSignIn,
} from '../../features/auth/index.ts'
import { message } from '../../i18n/index.ts'
import { useCheckedForm } from '../../lib/checked-form.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { AuthCard } from './auth-layout.tsx'

export function LoginPasswordPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('login.title'))
  const navigate = useNavigate()
  const carry = useAuthCarry()
  const next = usePostAuthPath()
  const signIn = useSignIn()
  const [formError, setFormError] = useState<string | null>(null)
  const form = useCheckedForm({ email: carry.email, password: '' }, checkSignIn)
  const { isSubmitting } = form

  const onSubmit = form.handleSubmit(async (input) => {
    setFormError(null)
    try {
      await signIn.mutateAsync(input)
      navigate(next, { replace: true })
    } catch (error) {
      setFormError(applyServerErrors(form.setError, error, message('auth.signInFailed')))
    }
  })

  return (
    <AuthCard
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      footer={
        <>
          {t('login.noAccount')}{' '}
          <Link
            to={{ pathname: '/signup-password', search: carry.search }}
            state={carry.state}
            className="font-medium text-primary hover:underline"
          >
            {t('signUp')}
          </Link>
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {formError && <Alert tone="error">{formError}</Alert>}
        <EmailField form={form} />
        <PasswordField
          kind="current"
          form={form}
          name="password"
          labelAside={
            <Link to="/forgot-password" className="text-xs font-medium text-primary hover:underline">
              {t('forgotPassword')}
            </Link>
          }
        />
        <SubmitButton pending={isSubmitting} pendingLabel={t('signingIn')}>
          {t('signIn')}
        </SubmitButton>
        <p className="text-center text-sm">
          <Link
            to={{ pathname: '/login', search: carry.search }}
            state={carry.state}
            className="text-muted-foreground hover:text-foreground hover:underline"
          >
            {t('login.useCode')}
          </Link>
        </p>
      </form>
    </AuthCard>
  )
}
