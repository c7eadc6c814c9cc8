import { zodResolver } from '@hookform/resolvers/zod'
import { CheckCircle2, TriangleAlert } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import type { z } from 'zod'
import { directResetInput } from '../../../domain/auth.ts'
import { DELAYS_MS } from '../../../domain/constants.ts'
import { useDocumentTitle } from '../../components/page-header.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { useDirectReset } from '../../features/auth/account-auth.ts'
import { message } from '../../i18n/index.ts'
import { ApiError } from '../../lib/api.ts'
import { applyServerErrors, fieldError } from '../../lib/forms.ts'
import { AuthCard } from './auth-layout.tsx'

/** The direct reset (§2, §5): the current password instead of a mail; checked on the server. */
export function DirectResetPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('directReset.title'))
  const navigate = useNavigate()
  const directReset = useDirectReset()
  const [done, setDone] = useState(false)
  const [formError, setFormError] = useState<string | null>(null)
  const form = useForm<z.input<typeof directResetInput>, unknown, z.output<typeof directResetInput>>({
    resolver: zodResolver(directResetInput),
    defaultValues: { email: '', currentPassword: '', newPassword: '', confirmPassword: '' },
  })
  const { errors, isSubmitting } = form.formState

  useEffect(() => {
    if (!done) return
    const timer = setTimeout(() => navigate('/login-password', { replace: true }), DELAYS_MS.resetRedirect)
    return () => clearTimeout(timer)
  }, [done, navigate])

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
        <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
          <CheckCircle2 aria-hidden className="size-10 text-success" />
          <p className="text-sm text-muted-foreground">{t('directReset.doneText')}</p>
        </div>
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
        <Field label={t('email')} error={fieldError(errors, 'email')}>
          <Input
            type="email"
            autoComplete="email"
            placeholder={t('emailPlaceholder')}
            autoFocus
            {...form.register('email')}
          />
        </Field>
        <Field label={t('directReset.currentPassword')} error={fieldError(errors, 'currentPassword')}>
          <Input type="password" autoComplete="current-password" {...form.register('currentPassword')} />
        </Field>
        <Field
          label={t('directReset.newPassword')}
          error={fieldError(errors, 'newPassword')}
          hint={t('signup.passwordHint')}
        >
          <Input type="password" autoComplete="new-password" {...form.register('newPassword')} />
        </Field>
        <Field label={t('directReset.confirmPassword')} error={fieldError(errors, 'confirmPassword')}>
          <Input type="password" autoComplete="new-password" {...form.register('confirmPassword')} />
        </Field>
        <Button type="submit" className="w-full" disabled={isSubmitting}>
          {isSubmitting ? t('directReset.submitting') : t('directReset.submit')}
        </Button>
      </form>
    </AuthCard>
  )
}
