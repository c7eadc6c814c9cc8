import { ArrowLeft, KeyRound, Mail } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { checkSendCode, checkVerifyCode, sanitizeCodeInput } from '../../../domain/auth-checks.ts'
import { LOGIN_CODE_LENGTH } from '../../../domain/constants.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import {
  EmailField,
  ProviderSignInButton,
  SubmitButton,
  useAuthCarry,
  usePostAuthPath,
  useSendCode,
  useVerifyCode,
} from '../../features/auth/index.ts'
import { message } from '../../i18n/index.ts'
import { ApiError } from '../../lib/api.ts'
import { useCheckedForm } from '../../lib/checked-form.ts'
import { applyServerErrors } from '../../lib/forms.ts'
import { useCountdown } from '../../lib/use-countdown.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'
import { AuthCard } from './auth-layout.tsx'

/**
 * The emailed-code sign-in: step 1 the email, step 2 the 6-digit code. The code mail's link
 * (`?email=&step=code`) opens step 2 for its address; `?email=` alone fills step 1 in.
 */
export function LoginCodePage() {
  const { t } = useTranslation('auth')
  useDocumentTitle(t('codeLogin.title'))
  const navigate = useNavigate()
  const next = usePostAuthPath()
  const carry = useAuthCarry()
  const [params] = useSearchParams()
  const linked = params.get('step') === 'code' ? checkSendCode({ email: carry.email }) : null
  const linkedEmail = linked?.ok ? linked.value.email : null
  const sendCode = useSendCode(next)
  const verifyCode = useVerifyCode()
  const countdown = useCountdown()
  const [email, setEmail] = useState<string | null>(linkedEmail)
  const [notice, setNotice] = useState<{ tone: 'error' | 'success'; text: string } | null>(null)

  const emailForm = useCheckedForm({ email: carry.email }, checkSendCode)
  const codeForm = useCheckedForm({ email: linkedEmail ?? '', code: '' }, checkVerifyCode)
  const { code } = codeForm.values

  /** A 429 disables sending and counts the server's Retry-After down; other failures say so. */
  const showSendError = (error: unknown, fallback: 'auth.codeSendFailed' | 'auth.codeResendFailed') => {
    if (error instanceof ApiError && error.code === 'rate_limited') {
      // The server's message says how long; the button counts it down (a live alert would be
      // announced again every second).
      if (error.retryAfter) {
        countdown.start(error.retryAfter)
        setNotice({ tone: 'error', text: error.message })
      } else {
        setNotice({ tone: 'error', text: message('auth.tooManyAttemptsWait') })
      }
      return
    }
    setNotice({ tone: 'error', text: applyServerErrors(emailForm.setError, error, message(fallback)) })
  }

  const onSend = emailForm.handleSubmit(async (input) => {
    setNotice(null)
    try {
      await sendCode.mutateAsync(input.email)
      setEmail(input.email)
      codeForm.reset({ email: input.email, code: '' })
    } catch (error) {
      showSendError(error, 'auth.codeSendFailed')
    }
  })

  const onResend = async () => {
    if (!email) return
    setNotice(null)
    try {
      await sendCode.mutateAsync(email)
      codeForm.setValue('code', '')
      setNotice({ tone: 'success', text: t('codeLogin.resent') })
    } catch (error) {
      showSendError(error, 'auth.codeResendFailed')
    }
  }

  const onVerify = codeForm.handleSubmit(async (input) => {
    setNotice(null)
    try {
      await verifyCode.mutateAsync(input)
      navigate(next, { replace: true })
    } catch (error) {
      if (error instanceof ApiError && error.code === 'rate_limited') countdown.start(error.retryAfter ?? 60)
      setNotice({
        tone: 'error',
        text: applyServerErrors(codeForm.setError, error, message('auth.codeVerifyFailed')),
      })
    }
  })

  const switchEmail = () => {
    setEmail(null)
    setNotice(null)
    codeForm.reset({ email: '', code: '' })
  }

  const waiting = countdown.remaining > 0

  return (
    <AuthCard
      title={t('codeLogin.title')}
      subtitle={email ? t('codeLogin.codeSentTo', { email }) : t('codeLogin.subtitle')}
      footer={
        <div className="flex flex-col items-center gap-2">
          <Link
            to={{ pathname: '/login-password', search: carry.search }}
            state={carry.state}
            className="inline-flex items-center gap-1.5 font-medium text-primary hover:underline"
          >
            <KeyRound aria-hidden className="size-4" />
            {t('codeLogin.usePassword')}
          </Link>
          <Link to="/supabase-config" className="text-xs hover:text-foreground hover:underline">
            {t('codeLogin.emailSetup')}
          </Link>
        </div>
      }
    >
      <div className="space-y-4">
        {notice && <Alert tone={notice.tone}>{notice.text}</Alert>}
        {email === null ? (
          <>
            <form noValidate onSubmit={onSend} className="space-y-4">
              <p className="text-sm text-muted-foreground">{t('codeLogin.emailStep')}</p>
              <EmailField form={emailForm} />
              <Button type="submit" className="w-full" disabled={emailForm.isSubmitting || waiting}>
                <Mail />
                {waiting
                  ? t('codeLogin.sendIn', { seconds: countdown.remaining })
                  : emailForm.isSubmitting
                    ? t('codeLogin.sending')
                    : t('codeLogin.sendCode')}
              </Button>
            </form>
            <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase">
              <span className="h-px flex-1 bg-border" />
              {t('codeLogin.or')}
              <span className="h-px flex-1 bg-border" />
            </div>
            <ProviderSignInButton provider="google" returnTo={next} />
          </>
        ) : (
          <form noValidate onSubmit={onVerify} className="space-y-4">
            <Field label={t('codeLogin.code')} error={codeForm.error('code')} hint={t('codeLogin.codeHint')}>
              <Input
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                maxLength={LOGIN_CODE_LENGTH}
                autoFocus
                className="h-12 text-center font-mono text-2xl tracking-[0.5em]"
                {...codeForm.register('code', { clean: sanitizeCodeInput })}
              />
            </Field>
            <SubmitButton
              pending={codeForm.isSubmitting}
              pendingLabel={t('codeLogin.verifying')}
              disabled={code.length !== LOGIN_CODE_LENGTH}
            >
              {t('codeLogin.verify')}
            </SubmitButton>
            <div className="flex flex-col gap-2 sm:flex-row">
              <Button
                variant="outline"
                className="flex-1"
                disabled={waiting || sendCode.isPending}
                onClick={() => void onResend()}
              >
                {waiting ? t('codeLogin.resendIn', { seconds: countdown.remaining }) : t('codeLogin.resend')}
              </Button>
              <Button variant="ghost" className="flex-1" onClick={switchEmail}>
                <ArrowLeft />
                {t('codeLogin.differentEmail')}
              </Button>
            </div>
          </form>
        )}
      </div>
    </AuthCard>
  )
}
