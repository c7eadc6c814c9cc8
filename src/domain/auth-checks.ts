import type {
  AdminSetPasswordInput,
  DirectResetInput,
  NewPasswordInput,
  SendCodeInput,
  SignInInput,
  SignUpInput,
  VerifyCodeInput,
} from './auth.ts'
import { LOGIN_CODE_LENGTH, PASSWORD_MAX, PASSWORD_MIN } from './constants.ts'
import type { MessageKey } from './messages/index.ts'

/**
 * The sign-in forms' rules as plain functions, for the sign-in pages, which do not load zod
 * (decision 0220). The schemas in `auth.ts` stay what the server validates with; each check here
 * answers what its schema answers, field by field (the first problem of each field, as a message
 * key), and a property test holds them to it.
 */

/** zod's practical email rule (the default of `z.email()`); `emailSchema` is built on it too. */
export const EMAIL_PATTERN =
  /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/
export const EMAIL_MAX = 254
export const LOGIN_CODE_PATTERN = new RegExp(`^\\d{${LOGIN_CODE_LENGTH}}$`)

/** Keeps what the user types in the code box to digits, at most 6. */
export function sanitizeCodeInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, LOGIN_CODE_LENGTH)
}

/** A form's values as its schema parses them, or the first problem of each field that has one. */
export type Checked<T> =
  | { ok: true; value: T }
  | { ok: false; errors: Partial<Record<keyof T & string, MessageKey>> }

function checked<T>(value: T, problems: Partial<Record<keyof T & string, MessageKey | null>>): Checked<T> {
  const errors = Object.fromEntries(Object.entries(problems).filter(([, key]) => key)) as Partial<
    Record<keyof T & string, MessageKey>
  >
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, value }
}

/** A text's length as zod measures it: in code points (a lone surrogate counts one). */
const lengthOf = (text: string) => [...text].length

/** Emails are trimmed and lowercased everywhere. */
const normalizeEmail = (email: string) => email.trim().toLowerCase()

function emailProblem(email: string): MessageKey | null {
  if (email === '') return 'validation.emailRequired'
  if (lengthOf(email) > EMAIL_MAX || !EMAIL_PATTERN.test(email)) return 'validation.emailInvalid'
  return null
}

/** A password's length: `required` when empty, `short` under the minimum (when given), `long` over the maximum. */
function passwordProblem(
  password: string,
  problems: { required: MessageKey; short?: MessageKey; long: MessageKey },
): MessageKey | null {
  if (password === '') return problems.required
  if (problems.short && lengthOf(password) < PASSWORD_MIN) return problems.short
  if (lengthOf(password) > PASSWORD_MAX) return problems.long
  return null
}

const newPassword = {
  required: 'validation.passwordRequired',
  short: 'validation.passwordMin',
  long: 'validation.passwordMax',
} as const
const chosenPassword = {
  ...newPassword,
  required: 'validation.newPasswordRequired',
  short: 'validation.newPasswordMin',
} as const

/** `signInInput` */
export function checkSignIn(input: SignInInput): Checked<SignInInput> {
  const email = normalizeEmail(input.email)
  return checked(
    { email, password: input.password },
    {
      email: emailProblem(email),
      password: passwordProblem(input.password, {
        required: 'validation.passwordRequired',
        long: 'auth.invalidCredentials',
      }),
    },
  )
}

/** `signUpInput` */
export function checkSignUp(input: SignUpInput): Checked<SignUpInput> {
  const email = normalizeEmail(input.email)
  return checked(
    { ...input, email },
    {
      email: emailProblem(email),
      password: passwordProblem(input.password, newPassword),
      acceptTerms: input.acceptTerms === true ? null : 'validation.termsRequired',
      confirmPassword: input.password === input.confirmPassword ? null : 'validation.passwordsMismatch',
    },
  )
}

/** `sendCodeInput` */
export function checkSendCode(input: SendCodeInput): Checked<SendCodeInput> {
  const email = normalizeEmail(input.email)
  return checked({ email }, { email: emailProblem(email) })
}

/** `verifyCodeInput` */
export function checkVerifyCode(input: VerifyCodeInput): Checked<VerifyCodeInput> {
  const email = normalizeEmail(input.email)
  const code = input.code.trim()
  const codeProblem =
    code === '' ? 'validation.codeRequired' : LOGIN_CODE_PATTERN.test(code) ? null : 'validation.codeFormat'
  return checked({ email, code }, { email: emailProblem(email), code: codeProblem })
}

/** `newPasswordInput` */
export function checkNewPassword(input: NewPasswordInput): Checked<NewPasswordInput> {
  return checked(input, {
    password: passwordProblem(input.password, newPassword),
    confirmPassword: input.password === input.confirmPassword ? null : 'validation.passwordsMismatch',
  })
}

/** `directResetInput` */
export function checkDirectReset(input: DirectResetInput): Checked<DirectResetInput> {
  const email = normalizeEmail(input.email)
  const same = input.newPassword === input.currentPassword
  return checked(
    { ...input, email },
    {
      email: emailProblem(email),
      currentPassword: passwordProblem(input.currentPassword, {
        required: 'validation.currentPasswordRequired',
        long: 'auth.directResetInvalid',
      }),
      newPassword:
        passwordProblem(input.newPassword, chosenPassword) ?? (same ? 'validation.newPasswordSame' : null),
      confirmPassword: input.newPassword === input.confirmPassword ? null : 'validation.newPasswordsMismatch',
    },
  )
}

/** `adminSetPasswordInput` */
export function checkAdminSetPassword(input: AdminSetPasswordInput): Checked<AdminSetPasswordInput> {
  const email = normalizeEmail(input.email)
  return checked(
    { email, newPassword: input.newPassword },
    { email: emailProblem(email), newPassword: passwordProblem(input.newPassword, chosenPassword) },
  )
}
