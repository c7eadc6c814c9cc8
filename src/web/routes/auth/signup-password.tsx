import { CreditCard, Sparkles } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { checkSignUp } from '../../../domain/auth-checks.ts'
import { DELAYS_MS } from '../../../domain/constants.ts'
import { TaggedText } from '../../components/tagged-text.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Checkbox } from '../../components/ui/checkbox.tsx'
import {
  EmailField,
  PasswordField,
  SubmitButton,
  SuccessStatus,
  useAuthCarry,
  usePostAuthPath,
  useSignUp,
} from '../../features/auth/index.ts'
import { message } from '../../i18n/index.ts'
import { useCheckedForm } from '../../lib/checked-form.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { useRedirectAfter } from '../../lib/use-redirect-after.ts'
import { AuthCard } from './auth-layout.tsx'

export function SignupPasswordPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('signup.title'))
  const carry = useAuthCarry()
  const next = usePostAuthPath()
  const signUp = useSignUp()
  const [formError, setFormError] = useState<string | null>(null)
  const [registered, setRegistered] = useState(false)
  const form = useCheckedForm(
    { email: carry.email, password: '', confirmPassword: '', acceptTerms: false },
    checkSignUp,
  )
  const { isSubmitting } = form

  useRedirectAfter(registered ? next : null, DELAYS_MS.signupRedirect)

  const onSubmit = form.handleSubmit(async (input) => {
    setFormError(null)
    try {
      await signUp.mutateAsync(input)
      setRegistered(true)
    } catch (error) {
      setFormError(applyServerErrors(form.setError, error, message('error.unexpected')))
    }
  })

  if (registered) {
    return (
      <AuthCard title={t('signup.success')}>
        <SuccessStatus text={t('signup.successRedirect')} />
      </AuthCard>
    )
  }

  const termsError = form.error('acceptTerms')
  return (
    <AuthCard
      title={t('signup.title')}
      subtitle={t('signup.subtitle')}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Link
            to={{ pathname: '/login-password', search: carry.search }}
            state={carry.state}
            className="font-medium text-primary hover:underline"
          >
            {t('signIn')}
          </Link>
        </>
      }
    >
      <ul className="mb-5 grid grid-cols-1 gap-2 rounded-lg bg-accent/60 p-3 text-sm text-accent-foreground sm:grid-cols-2">
        <li className="flex items-center gap-2">
          <Sparkles aria-hidden className="size-4" />
          {t('signup.trialPromise')}
        </li>
        <li className="flex items-center gap-2">
          <CreditCard aria-hidden className="size-4" />
          {t('signup.noCard')}
        </li>
      </ul>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {formError && <Alert tone="error">{formError}</Alert>}
        <EmailField form={form} />
        <PasswordField kind="new" form={form} name="password" />
        <PasswordField kind="repeat" form={form} name="confirmPassword" />
        <div className="space-y-1.5">
          <div className="flex items-start gap-2.5">
            <Checkbox
              id="accept-terms"
              checked={form.values.acceptTerms}
              onCheckedChange={(checked) => form.change('acceptTerms', checked === true)}
              aria-invalid={termsError ? true : undefined}
              aria-describedby={termsError ? 'accept-terms-error' : undefined}
              className="mt-0.5"
            />
            <label htmlFor="accept-terms" className="text-sm leading-snug">
              <TaggedText
                text={t('signup.acceptTerms')}
                tags={{
                  terms: (
                    <Link to="/terms" target="_blank" className="font-medium text-primary hover:underline" />
                  ),
                  privacy: (
                    <Link
                      to="/privacy"
                      target="_blank"
                      className="font-medium text-primary hover:underline"
                    />
                  ),
                }}
              />
            </label>
          </div>
          {termsError && (
            <p id="accept-terms-error" role="alert" className="text-xs font-medium text-destructive">
              {termsError}
            </p>
          )}
        </div>
        <SubmitButton pending={isSubmitting} pendingLabel={t('signingUp')}>
          {t('signUp')}
        </SubmitButton>
      </form>
    </AuthCard>
  )
}
