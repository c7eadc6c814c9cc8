import { zodResolver } from '@hookform/resolvers/zod'
import { CheckCircle2, CreditCard, Sparkles } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Trans, useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import type { z } from 'zod'
import { signUpInput } from '../../../domain/auth.ts'
import { DELAYS_MS } from '../../../domain/constants.ts'
import { useDocumentTitle } from '../../components/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Checkbox } from '../../components/ui/checkbox.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { usePostAuthPath } from '../../features/auth/guards.tsx'
import { useSignUp } from '../../features/auth/session.ts'
import { message } from '../../i18n/index.ts'
import { applyServerErrors, fieldError } from '../../lib/forms.ts'
import { AuthCard } from './auth-layout.tsx'

export function SignupPasswordPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('signup.title'))
  const navigate = useNavigate()
  const location = useLocation()
  const next = usePostAuthPath()
  const signUp = useSignUp()
  const [formError, setFormError] = useState<string | null>(null)
  const [registered, setRegistered] = useState(false)
  const form = useForm<z.input<typeof signUpInput>, unknown, z.output<typeof signUpInput>>({
    resolver: zodResolver(signUpInput),
    defaultValues: { email: '', password: '', confirmPassword: '', acceptTerms: false },
  })
  const { errors, isSubmitting } = form.formState

  useEffect(() => {
    if (!registered) return
    const timer = setTimeout(() => navigate(next, { replace: true }), DELAYS_MS.signupRedirect)
    return () => clearTimeout(timer)
  }, [registered, navigate, next])

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
        <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
          <CheckCircle2 aria-hidden className="size-10 text-success" />
          <p className="text-muted-foreground">{t('signup.successRedirect')}</p>
        </div>
      </AuthCard>
    )
  }

  const termsError = fieldError(errors, 'acceptTerms')
  return (
    <AuthCard
      title={t('signup.title')}
      subtitle={t('signup.subtitle')}
      footer={
        <>
          {t('signup.haveAccount')}{' '}
          <Link
            to="/login-password"
            state={location.state}
            className="font-medium text-primary hover:underline"
          >
            {t('signIn')}
          </Link>
        </>
      }
    >
      <ul className="mb-5 grid gap-2 rounded-lg bg-accent/60 p-3 text-sm text-accent-foreground sm:grid-cols-2">
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
        <Field label={t('email')} error={fieldError(errors, 'email')}>
          <Input
            type="email"
            autoComplete="email"
            placeholder={t('emailPlaceholder')}
            autoFocus
            {...form.register('email')}
          />
        </Field>
        <Field label={t('password')} error={fieldError(errors, 'password')} hint={t('signup.passwordHint')}>
          <Input type="password" autoComplete="new-password" {...form.register('password')} />
        </Field>
        <Field label={t('repeatPassword')} error={fieldError(errors, 'confirmPassword')}>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
        </Field>
        <div className="space-y-1.5">
          <div className="flex items-start gap-2.5">
            <Controller
              control={form.control}
              name="acceptTerms"
              render={({ field }) => (
                <Checkbox
                  id="accept-terms"
                  checked={field.value === true}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  aria-invalid={termsError ? true : undefined}
                  aria-describedby={termsError ? 'accept-terms-error' : undefined}
                  className="mt-0.5"
                />
              )}
            />
            <label htmlFor="accept-terms" className="text-sm leading-snug">
              <Trans
                t={t}
                i18nKey="signup.acceptTerms"
                components={{
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
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? t('signingUp') : t('signUp')}
        </Button>
      </form>
    </AuthCard>
  )
}
