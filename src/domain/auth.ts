import { z } from 'zod'
import { PASSWORD_MAX, PASSWORD_MIN } from './constants.ts'

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
