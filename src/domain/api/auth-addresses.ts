import type { OperationAddress } from './address.ts'

/**
 * The methods and paths of the auth and account operations. Their declarations (`auth.ts`,
 * `account.ts`) take them from here; the sign-in pages call these operations by address, so that
 * they do not download the schemas (decision 0220).
 */
export const authAddresses = {
  signUp: { method: 'POST', path: '/v1/auth/sign-up' },
  signIn: { method: 'POST', path: '/v1/auth/sign-in' },
  sendCode: { method: 'POST', path: '/v1/auth/code/send' },
  verifyCode: { method: 'POST', path: '/v1/auth/code/verify' },
  providers: { method: 'GET', path: '/v1/auth/providers' },
  requestPasswordReset: { method: 'POST', path: '/v1/auth/password-reset' },
  openRecovery: { method: 'POST', path: '/v1/auth/recovery' },
  recovery: { method: 'GET', path: '/v1/auth/recovery' },
  recoverPassword: { method: 'POST', path: '/v1/auth/recovery/password' },
  directReset: { method: 'POST', path: '/v1/auth/direct-reset' },
  adminSetPassword: { method: 'POST', path: '/v1/auth/admin/set-password' },
  reauthenticate: { method: 'POST', path: '/v1/auth/reauthenticate' },
  sendReauthenticationCode: { method: 'POST', path: '/v1/auth/reauthenticate/code/send' },
  reauthenticateWithCode: { method: 'POST', path: '/v1/auth/reauthenticate/code' },
  diagnostics: { method: 'GET', path: '/v1/auth/diagnostics' },
} as const satisfies Record<string, OperationAddress>

export const accountAddresses = {
  session: { method: 'GET', path: '/v1/session' },
  sessions: { method: 'GET', path: '/v1/sessions' },
  me: { method: 'GET', path: '/v1/me' },
  profile: { method: 'GET', path: '/v1/profile' },
  updateProfile: { method: 'PATCH', path: '/v1/profile' },
} as const satisfies Record<string, OperationAddress>

/**
 * The endpoints better-auth serves itself under `/api/auth/*` that the web app calls directly (the
 * rest of better-auth's endpoints are closed, see decision 0006). They are not operations of ours:
 * better-auth owns their shapes.
 */
export const authLibraryPaths = {
  signOut: '/api/auth/sign-out',
  revokeOtherSessions: '/api/auth/revoke-other-sessions',
  socialSignIn: '/api/auth/sign-in/social',
} as const
