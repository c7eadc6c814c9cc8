import { z } from 'zod'
import {
  adminSetPasswordInput,
  authDiagnosticsSchema,
  authProvidersSchema,
  currentUserSchema,
  directResetInput,
  newPasswordInput,
  passwordResetRequestInput,
  reauthenticateCodeInput,
  reauthenticateInput,
  recoveryVerifyInput,
  sendCodeInput,
  signInInput,
  signUpInput,
  verifyCodeInput,
} from '../auth.ts'
import { authAddresses } from './auth-addresses.ts'
import { defineOperations } from './operation.ts'

/** A new session: the signed-in user, with the session cookie set. */
const signedIn = z.object({ user: currentUserSchema })
const sent = z.object({ sent: z.literal(true) })
const updated = z.object({ updated: z.literal(true) })
const recoveryAccount = z.object({ email: z.string() })

export const authOperations = defineOperations(
  'auth',
  {
    title: 'Sign-in',
    description:
      'Signing up and in (password or emailed code) and resetting a password. Rate limited per ' +
      'client address and per account: 429 with `Retry-After`. Signing out and Google sign-in go ' +
      "through better-auth's own endpoints under `/api/auth/*`.",
  },
  {
    signUp: {
      ...authAddresses.signUp,
      summary: 'Create an account and sign in (without ADMIN_EMAIL the first account becomes global admin)',
      access: 'public',
      body: signUpInput,
      response: signedIn,
      created: true,
      errors: ['conflict', 'rate_limited'],
    },
    signIn: {
      ...authAddresses.signIn,
      summary: 'Sign in with email and password',
      access: 'public',
      body: signInInput,
      response: signedIn,
      errors: ['not_authenticated', 'forbidden', 'rate_limited'],
    },
    sendCode: {
      ...authAddresses.sendCode,
      summary: 'Email a 6-digit sign-in code (valid 10 minutes; the same answer for unknown emails)',
      access: 'public',
      body: sendCodeInput,
      response: sent,
      errors: ['rate_limited'],
    },
    verifyCode: {
      ...authAddresses.verifyCode,
      summary: 'Sign in with the emailed code (dead after 5 wrong tries)',
      access: 'public',
      body: verifyCodeInput,
      response: signedIn,
      errors: ['not_authenticated', 'forbidden', 'rate_limited'],
    },
    providers: {
      ...authAddresses.providers,
      summary: 'Which sign-in providers and mail delivery are configured',
      access: 'public',
      response: authProvidersSchema,
    },
    requestPasswordReset: {
      ...authAddresses.requestPasswordReset,
      summary: 'Email a reset link (the same answer for unknown emails)',
      access: 'public',
      body: passwordResetRequestInput,
      response: sent,
      errors: ['rate_limited'],
    },
    openRecovery: {
      ...authAddresses.openRecovery,
      summary: 'Open a reset link: starts a short recovery session (cookie)',
      access: 'public',
      body: recoveryVerifyInput,
      response: recoveryAccount,
      errors: ['rate_limited'],
    },
    recovery: {
      ...authAddresses.recovery,
      summary: 'The account of the current recovery session',
      access: 'public',
      response: recoveryAccount,
      errors: ['not_authenticated'],
    },
    recoverPassword: {
      ...authAddresses.recoverPassword,
      summary: 'Set the new password in a recovery session; ends every session of the account',
      access: 'public',
      body: newPasswordInput,
      response: updated,
      errors: ['not_authenticated'],
    },
    directReset: {
      ...authAddresses.directReset,
      summary: 'Change a password with the current one; ends every session of the account',
      access: 'public',
      body: directResetInput,
      response: updated,
      errors: ['not_authenticated', 'rate_limited'],
    },
    adminSetPassword: {
      ...authAddresses.adminSetPassword,
      summary: 'Set any account’s password (global admins); ends that account’s sessions',
      access: 'global-admin',
      body: adminSetPasswordInput,
      response: updated,
      errors: ['not_found'],
    },
    reauthenticate: {
      ...authAddresses.reauthenticate,
      summary:
        'Sign in again with the password, for an action that needs a recent sign-in: a new session replaces this one',
      access: 'signed-in',
      body: reauthenticateInput,
      response: signedIn,
      errors: ['forbidden', 'rate_limited'],
    },
    sendReauthenticationCode: {
      ...authAddresses.sendReauthenticationCode,
      summary: 'Email a 6-digit code to the signed-in account, to sign in again with it (valid 10 minutes)',
      access: 'signed-in',
      response: sent,
      errors: ['rate_limited'],
    },
    reauthenticateWithCode: {
      ...authAddresses.reauthenticateWithCode,
      summary:
        'Sign in again with the emailed code, for an action that needs a recent sign-in: a new session replaces this one',
      access: 'signed-in',
      body: reauthenticateCodeInput,
      response: signedIn,
      errors: ['forbidden', 'rate_limited'],
    },
    diagnostics: {
      ...authAddresses.diagnostics,
      summary: 'Sign-in configuration and recent failed sign-ins, for the admin debug page',
      access: 'global-admin',
      response: authDiagnosticsSchema,
    },
  },
)
