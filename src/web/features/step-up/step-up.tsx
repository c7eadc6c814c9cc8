import { useMutation } from '@tanstack/react-query'
import { createContext, type ReactNode, use, useCallback, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { authOperations } from '../../../domain/api/auth.ts'
import { REAUTHENTICATION_REQUIRED } from '../../../domain/api/operation.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { ApiError, callOperation, errorText } from '../../lib/api.ts'
import { useCurrentUser } from '../auth/index.ts'

/** Opens the dialog; resolves true once the user signed in again, false when they cancelled. */
type Confirm = () => Promise<boolean>

const StepUpContext = createContext<Confirm | null>(null)

/** The server refused because the sign-in is not recent enough (`recentSignIn` operations). */
function isReauthenticationRequired(error: unknown): boolean {
  return error instanceof ApiError && error.reason === REAUTHENTICATION_REQUIRED
}

/**
 * Runs an action that may need a recent sign-in: when the server asks for one, the
 * re-authentication dialog opens, and after the user signed in again the action runs once more.
 * Cancelled, the server's refusal is the action's error. For a feature's mutations:
 * `mutationFn: (body) => stepUp(() => callOperation(op, { body }))`.
 */
export function useStepUp() {
  const confirm = use(StepUpContext)
  return useCallback(
    async <T,>(action: () => Promise<T>): Promise<T> => {
      try {
        return await action()
      } catch (error) {
        if (!confirm || !isReauthenticationRequired(error) || !(await confirm())) throw error
        return action()
      }
    },
    [confirm],
  )
}

/** Holds the one re-authentication dialog of the signed-in screens (in the app shell). */
export function StepUpProvider({ children }: { children: ReactNode }) {
  const [open, setOpen] = useState(false)
  // Actions refused at the same time wait for the same dialog.
  const waiting = useRef<Array<(confirmed: boolean) => void>>([])
  const confirm = useCallback<Confirm>(
    () =>
      new Promise<boolean>((resolve) => {
        waiting.current.push(resolve)
        setOpen(true)
      }),
    [],
  )
  const finish = (confirmed: boolean) => {
    const resolvers = waiting.current
    waiting.current = []
    setOpen(false)
    for (const resolve of resolvers) resolve(confirmed)
  }
  return (
    <StepUpContext value={confirm}>
      {children}
      <Dialog open={open} onOpenChange={(next) => !next && finish(false)}>
        {open && <StepUpDialogContent onConfirmed={() => finish(true)} onCancel={() => finish(false)} />}
      </Dialog>
    </StepUpContext>
  )
}

type Method = 'password' | 'code'

function StepUpDialogContent({ onConfirmed, onCancel }: { onConfirmed: () => void; onCancel: () => void }) {
  const { t } = useTranslation('account')
  const user = useCurrentUser()
  const [method, setMethod] = useState<Method>('password')
  const [secret, setSecret] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const [codeSent, setCodeSent] = useState(false)
  const sendCode = useMutation({
    mutationFn: () => callOperation(authOperations.sendReauthenticationCode, {}),
  })
  const verify = useMutation({
    mutationFn: (value: string) =>
      method === 'password'
        ? callOperation(authOperations.reauthenticate, { body: { password: value } })
        : callOperation(authOperations.reauthenticateWithCode, { body: { code: value } }),
  })
  const pending = verify.isPending || sendCode.isPending

  const switchTo = (next: Method) => {
    setMethod(next)
    setSecret('')
    setProblem(null)
  }
  const onSendCode = () => {
    setProblem(null)
    sendCode.mutate(undefined, {
      onSuccess: () => setCodeSent(true),
      onError: (error) => setProblem(errorText(error, t('stepUp.failed'))),
    })
  }
  const onSubmit = () => {
    if (secret.trim() === '') {
      setProblem(method === 'password' ? t('stepUp.passwordRequired') : t('stepUp.codeRequired'))
      return
    }
    setProblem(null)
    verify.mutate(method === 'password' ? secret : secret.trim(), {
      onSuccess: onConfirmed,
      onError: (error) =>
        setProblem(
          error instanceof ApiError
            ? (Object.values(error.fields)[0] ?? error.message)
            : errorText(error, t('stepUp.failed')),
        ),
    })
  }

  return (
    <DialogContent title={t('stepUp.title')} description={t('stepUp.text')}>
      <form
        className="space-y-4"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          onSubmit()
        }}
      >
        {method === 'password' ? (
          <Field label={t('stepUp.password')} error={problem ?? undefined}>
            <Input
              type="password"
              autoComplete="current-password"
              autoFocus
              value={secret}
              onChange={(event) => setSecret(event.target.value)}
            />
          </Field>
        ) : (
          <div className="space-y-3">
            <p className="text-sm">{t('stepUp.codeText', { email: user.email })}</p>
            {codeSent && <Alert tone="success">{t('stepUp.codeSent')}</Alert>}
            <Button variant="outline" size="sm" disabled={pending} onClick={onSendCode} autoFocus>
              {codeSent ? t('stepUp.resendCode') : t('stepUp.sendCode')}
            </Button>
            {codeSent ? (
              <Field label={t('stepUp.code')} error={problem ?? undefined}>
                <Input
                  type="text"
                  inputMode="numeric"
                  autoComplete="one-time-code"
                  value={secret}
                  onChange={(event) => setSecret(event.target.value)}
                />
              </Field>
            ) : (
              problem && <Alert tone="error">{problem}</Alert>
            )}
          </div>
        )}
        <Button
          variant="link"
          size="sm"
          onClick={() => switchTo(method === 'password' ? 'code' : 'password')}
        >
          {method === 'password' ? t('stepUp.useCode') : t('stepUp.usePassword')}
        </Button>
        <DialogFooter>
          <Button variant="outline" onClick={onCancel} disabled={verify.isPending}>
            {t('stepUp.cancel')}
          </Button>
          <Button type="submit" disabled={pending || (method === 'code' && !codeSent)}>
            {verify.isPending ? t('stepUp.confirming') : t('stepUp.confirm')}
          </Button>
        </DialogFooter>
      </form>
    </DialogContent>
  )
}
