import { CheckCircle2, type LucideIcon } from 'lucide-react'
import type { ChangeEvent, ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'

/** The pieces the sign-in, sign-up and password forms share, so they look and behave alike. */

/** What a field needs of its form (`useCheckedForm`): its input's props, and its problem to show. */
interface FormOf<N extends string> {
  register: (name: N) => {
    name: string
    value: string
    onChange: (event: ChangeEvent<HTMLInputElement>) => void
  }
  error: (name: N) => string | undefined
}

/** The account's email (the form's `email`), its first field: focused, and filled in by the browser. */
export function EmailField({ form }: { form: FormOf<'email'> }) {
  const { t } = useTranslation('auth')
  return (
    <Field label={t('email')} error={form.error('email')}>
      <Input
        type="email"
        autoComplete="email"
        placeholder={t('emailPlaceholder')}
        autoFocus
        {...form.register('email')}
      />
    </Field>
  )
}

/**
 * A password field. `current` is the one the account has; `new` chooses one (with the length
 * hint), `repeat` confirms it: password managers offer to fill or to generate accordingly. The
 * label is 'Password' ('Repeat password' for `repeat`) unless the form names it otherwise.
 */
export function PasswordField<N extends string>({
  form,
  name,
  kind,
  label,
  labelAside,
  autoFocus,
}: {
  form: FormOf<N>
  name: N
  kind: 'current' | 'new' | 'repeat'
  label?: string
  labelAside?: ReactNode
  autoFocus?: boolean
}) {
  const { t } = useTranslation('auth')
  return (
    <Field
      label={label ?? (kind === 'repeat' ? t('repeatPassword') : t('password'))}
      error={form.error(name)}
      hint={kind === 'new' ? t('signup.passwordHint') : undefined}
      labelAside={labelAside}
    >
      <Input
        type="password"
        autoComplete={kind === 'current' ? 'current-password' : 'new-password'}
        autoFocus={autoFocus}
        {...form.register(name)}
      />
    </Field>
  )
}

/** The form's full-width submit button, which says what it is doing while the request runs. */
export function SubmitButton({
  pending,
  pendingLabel,
  disabled,
  children,
}: {
  pending: boolean
  pendingLabel: string
  disabled?: boolean
  children: ReactNode
}) {
  return (
    <Button type="submit" className="w-full" disabled={pending || disabled}>
      {pending ? pendingLabel : children}
    </Button>
  )
}

/** What a form achieved, announced to screen readers, in place of the form. */
export function SuccessStatus({
  icon: Icon = CheckCircle2,
  text,
  children,
}: {
  icon?: LucideIcon
  text: string
  children?: ReactNode
}) {
  return (
    <div role="status" className="flex flex-col items-center gap-3 py-4 text-center">
      <Icon aria-hidden className="size-10 text-success" />
      <p className="text-sm text-muted-foreground">{text}</p>
      {children}
    </div>
  )
}
