import { z } from 'zod'
import { EMAIL_MAX, EMAIL_PATTERN, LOGIN_CODE_PATTERN } from './auth-checks.ts'
import { PASSWORD_MAX, PASSWORD_MIN } from './constants.ts'
import type { Locale } from './messages/index.ts'
import { isSafeNextPath } from './next-path.ts'

/** Emails are trimmed and lowercased everywhere. */
export const emailSchema = z
  .string({ error: 'validation.emailRequired' })
  .trim()
  .toLowerCase()
  .min(1, 'validation.emailRequired')
  .max(EMAIL_MAX, 'validation.emailInvalid')
  .pipe(z.email({ pattern: EMAIL_PATTERN, error: 'validation.emailInvalid' }))

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

/** Signing in again in a session (step-up, see `recentSignIn`): the account's password... */
export const reauthenticateInput = z.object({ password: signInInput.shape.password })

/** Step 1 of the emailed-code sign-in (and a resend). */
export const sendCodeInput = z.object({
  email: emailSchema,
  /**
   * Where to continue after signing in (an invitation): the code mail's link carries it on. Only
   * a path on this site (`isSafeNextPath`), since the link is the server's own.
   */
  next: z
    .string()
    .refine((next) => isSafeNextPath(next), 'validation.nextPath')
    .optional(),
})
export type SendCodeInput = z.input<typeof sendCodeInput>

/** The code: trimmed, digits only, exactly 6. */
export const loginCodeSchema = z
  .string({ error: 'validation.codeRequired' })
  .trim()
  .min(1, 'validation.codeRequired')
  .regex(LOGIN_CODE_PATTERN, 'validation.codeFormat')

export const verifyCodeInput = z.object({ email: emailSchema, code: loginCodeSchema })
/** ...or a code mailed to it (accounts without a password). */
export const reauthenticateCodeInput = z.object({ code: loginCodeSchema })
export type VerifyCodeInput = z.input<typeof verifyCodeInput>

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

/**
 * With a new password: also revoke the account's API keys and disable its webhook endpoints (the
 * ones someone holding its session could have made). Absent means no.
 */
const revokeAccessField = z.boolean({ error: 'error.validation' }).optional()

/** A new password with its confirmation (reset form). */
export const newPasswordInput = z
  .object({
    password: newPasswordSchema,
    confirmPassword: z.string({ error: 'validation.passwordRequired' }),
    revokeAccess: revokeAccessField,
  })
  .refine((input) => input.password === input.confirmPassword, {
    path: ['confirmPassword'],
    message: 'validation.passwordsMismatch',
  })
export type NewPasswordInput = z.input<typeof newPasswordInput>

/** The direct reset: email, current, new (>= 12), confirmation, new differs from current. */
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
    revokeAccess: revokeAccessField,
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
export const authProvidersSchema = z.object({
  google: z.boolean(),
  apple: z.boolean(),
  /** Mail leaves the server (SMTP_URL set); otherwise it goes to the server log and the outbox. */
  smtp: z.boolean(),
  /** The public origin (APP_URL) that emailed links and provider callbacks use. */
  appUrl: z.string(),
  /** The admins' testing-only password reset (/temp-reset) exists: not in production. */
  adminPasswordReset: z.boolean(),
  /**
   * Hosted previews: this whole deployment (APP_PREVIEW=1), or pages served from one of `origins`
   * (PREVIEW_ORIGINS). Provider sign-in redirects there instead of opening a popup.
   */
  preview: z.object({ deployment: z.boolean(), origins: z.array(z.string()) }),
})

export const oauthProviders = ['google', 'apple'] as const
export type OAuthProvider = (typeof oauthProviders)[number]

export const globalRoles = ['user', 'global_admin'] as const
export type GlobalRole = (typeof globalRoles)[number]

/** What `GET /api/v1/me` answers about the signed-in user. */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  globalRole: z.enum(globalRoles),
  createdAt: z.string(),
})
export type CurrentUser = z.infer<typeof currentUserSchema>

/**
 * Who is acting in a request: the signed-in user as every service receives it, with the language
 * their texts (default changelogs, mails) are written in. Ownership compares `id` with user ids.
 */
export interface Actor {
  id: string
  email: string
  globalRole: GlobalRole
  locale: Locale
  /** Where the request came from (TRUST_PROXY applied); the audit log records it. */
  clientAddress?: string
  /** The API key that authenticated the request, when one did (it acts as `id`). */
  apiKeyId?: string
}

/** One live check of the admin diagnostics: did it work, how long it took, why not. */
export const diagnosticCheckSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().nullable(),
  error: z.string().optional(),
})
export type DiagnosticCheck = z.infer<typeof diagnosticCheckSchema>

/** One of the signed-in user's sessions, as `/api/v1/sessions` lists it: never with its token. */
export const sessionSummarySchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  ipAddress: z.string().nullable(),
  userAgent: z.string().nullable(),
  /** The session of this request. */
  current: z.boolean(),
})
export type SessionSummary = z.infer<typeof sessionSummarySchema>

/** GET /api/v1/auth/diagnostics (global admins): what the server sees now, nothing remembered. */
export const authDiagnosticsSchema = z.object({
  checkedAt: z.string(),
  database: diagnosticCheckSchema.extend({ kind: z.string() }),
  session: z.object({
    id: z.string(),
    createdAt: z.string(),
    expiresAt: z.string(),
    absoluteExpiresAt: z.string(),
    ipAddress: z.string().nullable(),
    userAgent: z.string().nullable(),
  }),
  google: z.object({
    configured: z.boolean(),
    issuer: z.string().nullable(),
    callbackUrl: z.string(),
    discovery: diagnosticCheckSchema.nullable(),
  }),
  apple: z.object({ configured: z.boolean(), callbackUrl: z.string() }),
  smtp: z.object({ configured: z.boolean(), from: z.string(), connection: diagnosticCheckSchema.nullable() }),
  failedSignInsLast24h: z.number().int(),
})
export type AuthDiagnostics = z.infer<typeof authDiagnosticsSchema>
