import { MailCheck } from 'lucide-react'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { checkSendCode } from '../../../domain/auth-checks.ts'
import { safeNextPath } from '../../../domain/next-path.ts'
import { Alert } from '../../components/ui/alert.tsx'
import {
  EmailField,
  isAuthSuccessMessage,
  isInFrame,
  SubmitButton,
  SuccessStatus,
  useRequestPasswordReset,
} from '../../features/auth/index.ts'
import { message } from '../../i18n/index.ts'
import { ApiError } from '../../lib/api.ts'
import { useCheckedForm } from '../../lib/checked-form.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useCountdown } from '../../lib/use-countdown.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { AuthCard } from './auth-layout.tsx'

/** Forgot password: one email field; the same "Email sent" whether or not the account exists. */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('forgot.title'))
  const navigate = useNavigate()
  const requestReset = useRequestPasswordReset()
  const countdown = useCountdown()
  const [inFrame] = useState(isInFrame)
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [formError, setFormError] = useState<string | null>(null)
  const form = useCheckedForm({ email: '' }, checkSendCode)

  // The tab that opened the emailed link says where to continue.
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isAuthSuccessMessage(event.data)) return
      navigate(safeNextPath(event.data.nextUrl, '/reset-password'))
    }
    window.addEventListener('message', onMessage)
    return () => window.removeEventListener('message', onMessage)
  }, [navigate])

  const onSubmit = form.handleSubmit(async (input) => {
    setFormError(null)
    try {
      await requestReset.mutateAsync({ email: input.email, newTab: inFrame })
      setSentTo(input.email)
    } catch (error) {
      if (error instanceof ApiError && error.code === 'rate_limited') countdown.start(error.retryAfter ?? 60)
      setFormError(applyServerErrors(form.setError, error, message('error.unexpected')))
    }
  })

  const waiting = countdown.remaining > 0
  const footer = (
    <div className="flex flex-col items-center gap-2">
      <Link to="/login" className="font-medium text-primary hover:underline">
        {t('forgot.backToLogin')}
      </Link>
      {inFrame && (
        <Link to="/direct-reset-password" className="text-xs hover:text-foreground hover:underline">
          {t('forgot.directReset')}
        </Link>
      )}
    </div>
  )

  if (sentTo) {
    return (
      <AuthCard title={t('forgot.sentTitle')} footer={footer}>
        <SuccessStatus icon={MailCheck} text={t('forgot.sentText', { email: sentTo })}>
          {inFrame && <Alert>{t('forgot.inFrame')}</Alert>}
        </SuccessStatus>
      </AuthCard>
    )
  }

  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')} footer={footer}>
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {formError && <Alert tone="error">{formError}</Alert>}
        <EmailField form={form} />
        <SubmitButton pending={form.isSubmitting} pendingLabel={t('forgot.sending')} disabled={waiting}>
          {waiting ? t('forgot.sendAgainIn', { seconds: countdown.remaining }) : t('forgot.send')}
        </SubmitButton>
      </form>
    </AuthCard>
  )
}
