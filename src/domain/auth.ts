import { z } from 'zod'
import { LOGIN_CODE_LENGTH, PASSWORD_MAX, PASSWORD_MIN } from './constants.ts'

/** Emails are trimmed and lowercased everywhere (§5). */
export const emailSchema = z
  .string({ error: 'validation.emailRequired' })
  .trim()
  .toLowerCase()
  .min(1, 'validation.emailRequired')
  .max(254, 'validation.emailInvalid')
  .pipe(z.email('validation.emailInvalid'))

export const newPasswordSchema = z
  .string({ error: 'validation.passwordRequired' })
  .min(1, 'validation.passwordRequired')
  .min(PASSWORD_MIN, 'validation.passwordMin')
  .max(PASSWORD_MAX, 'validation.passwordMax')

export const signUpInput = z
  .object({
    email: emailSchema,
    password: newPasswordSchema,
    confirmPassword: z.string({ error: 'validation.passwordRequired' }),
    acceptTerms: z
      .boolean({ error: 'validation.termsRequired' })
      .refine((v) => v, 'validation.termsRequired'),
  })
  .refine((input) => input.password === input.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation.passwordsMismatch',
  })
export type SignUpInput = z.input<typeof signUpInput>

export const signInInput = z.object({
  email: emailSchema,
  password: z
    .string({ error: 'validation.passwordRequired' })
    .min(1, 'validation.passwordRequired')
    .max(PASSWORD_MAX, 'auth.invalidCredentials'),
})
export type SignInInput = z.input<typeof signInInput>

/** Step 1 of the emailed-code sign-in (and a resend). */
export const sendCodeInput = z.object({ email: emailSchema })
export type SendCodeInput = z.input<typeof sendCodeInput>

/** The code: trimmed, digits only, exactly 6 (§5). */
export const loginCodeSchema = z
  .string({ error: 'validation.codeRequired' })
  .trim()
  .min(1, 'validation.codeRequired')
  .regex(new RegExp(`^\\d{${LOGIN_CODE_LENGTH}}$`), 'validation.codeFormat')

export const verifyCodeInput = z.object({ email: emailSchema, code: loginCodeSchema })
export type VerifyCodeInput = z.input<typeof verifyCodeInput>

/** Keeps what the user types in the code box to digits, at most 6. */
export function sanitizeCodeInput(value: string): string {
  return value.replace(/\D/g, '').slice(0, LOGIN_CODE_LENGTH)
}

/** Forgot password: the address, and whether the request came from inside a frame (new-tab flow). */
export const passwordResetRequestInput = z.object({
  email: emailSchema,
  newTab: z.boolean().optional().default(false),
})
export type PasswordResetRequestInput = z.input<typeof passwordResetRequestInput>

/** The emailed link's token, verified on /auth/confirm. */
export const recoveryVerifyInput = z.object({
  tokenHash: z.string({ error: 'auth.resetLinkInvalid' }).trim().min(1, 'auth.resetLinkInvalid').max(200),
})

/** A new password with its confirmation (reset form). */
export const newPasswordInput = z
  .object({
    password: newPasswordSchema,
    confirmPassword: z.string({ error: 'validation.passwordRequired' }),
  })
  .refine((input) => input.password === input.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation.passwordsMismatch',
  })
export type NewPasswordInput = z.input<typeof newPasswordInput>

/** The direct reset (§5): email, current, new (>= 12), confirmation, new differs from current. */
export const directResetInput = z
  .object({
    email: emailSchema,
    currentPassword: z
      .string({ error: 'validation.currentPasswordRequired' })
      .min(1, 'validation.currentPasswordRequired')
      .max(PASSWORD_MAX, 'auth.directResetInvalid'),
    newPassword: z
      .string({ error: 'validation.newPasswordRequired' })
      .min(1, 'validation.newPasswordRequired')
      .min(PASSWORD_MIN, 'validation.newPasswordMin')
      .max(PASSWORD_MAX, 'validation.passwordMax'),
    confirmPassword: z.string({ error: 'validation.passwordRequired' }),
  })
  .refine((input) => input.newPassword === input.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation.newPasswordsMismatch',
  })
  .refine((input) => input.newPassword !== input.currentPassword, {
    path: ['newPassword'],
    message: 'validation.newPasswordSame',
  })
export type DirectResetInput = z.input<typeof directResetInput>

/** The admin test reset (/temp-reset): whose password, and the new one (>= 12). */
export const adminSetPasswordInput = z.object({
  email: emailSchema,
  newPassword: z
    .string({ error: 'validation.newPasswordRequired' })
    .min(1, 'validation.newPasswordRequired')
    .min(PASSWORD_MIN, 'validation.newPasswordMin')
    .max(PASSWORD_MAX, 'validation.passwordMax'),
})
export type AdminSetPasswordInput = z.input<typeof adminSetPasswordInput>

/** Which sign-in providers this server has configured (buttons explain the missing ones). */
export interface AuthProviders {
  google: boolean
  apple: boolean
  /** Mail leaves the server (SMTP_URL set); otherwise it goes to the server log and the outbox. */
  smtp: boolean
  /** The public origin (APP_URL) that emailed links and provider callbacks use. */
  appUrl: string
}

export const oauthProviders = ['google', 'apple'] as const
export type OAuthProvider = (typeof oauthProviders)[number]

export const globalRoles = ['user', 'global_admin'] as const
export type GlobalRole = (typeof globalRoles)[number]

/** What `GET /api/v1/me` answers about the signed-in user. */
export interface CurrentUser {
  id: string
  email: string
  name: string
  globalRole: GlobalRole
  createdAt: string
}

/** One live check of the admin diagnostics: did it work, how long it took, why not. */
export interface DiagnosticCheck {
  ok: boolean
  latencyMs: number | null
  error?: string
}

/** One of the signed-in user's sessions, as `/api/v1/sessions` lists it: never with its token. */
export interface SessionSummary {
  id: string
  createdAt: string
  expiresAt: string
  ipAddress: string | null
  userAgent: string | null
  /** The session of this request. */
  current: boolean
}

/** GET /api/v1/auth/diagnostics (global admins): what the server sees now, nothing remembered. */
export interface AuthDiagnostics {
  checkedAt: string
  database: { kind: string } & DiagnosticCheck
  session: {
    id: string
    createdAt: string
    expiresAt: string
    absoluteExpiresAt: string
    ipAddress: string | null
    userAgent: string | null
  }
  google: {
    configured: boolean
    issuer: string | null
    callbackUrl: string
    discovery: DiagnosticCheck | null
  }
  apple: { configured: boolean; callbackUrl: string }
  smtp: { configured: boolean; from: string; connection: DiagnosticCheck | null }
  failedSignInsLast24h: number
}
