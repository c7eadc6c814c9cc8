/**
 * What the routes and other features use of the auth feature: who is signed in and the guards of
 * the route tables; the sign-in, sign-up and recovery pages' forms and calls; signing out; the
 * diagnostics of the admin pages. Like every feature's index it only re-exports: the build takes
 * each name from its own module (vite.config.ts), so a sign-in page does not download the rest.
 */
export {
  fetchRecoverySession,
  useAdminSetPassword,
  useAuthProviders,
  useDirectReset,
  useRequestPasswordReset,
  useSendCode,
  useSetRecoveredPassword,
  useSignOutOtherSessions,
  useVerifyCode,
} from './account-auth.ts'
export { EmailField, PasswordField, SubmitButton, SuccessStatus } from './auth-form.tsx'
export { useCallbackEffects } from './callback-effects.ts'
export type { Outcome } from './callback-outcome.ts'
export { resolveCallback } from './callback-outcome.ts'
export {
  useAuthDiagnostics,
  useAuthFlowTest,
  useMySessions,
  useRawAuthAnswers,
  useRefreshSession,
} from './diagnostics.ts'
export { isInFrame } from './frame.ts'
export { PublicOnly, useAuthCarry, usePostAuthPath } from './guards.tsx'
export type { OAuthStrategy } from './oauth.ts'
export { currentOAuthStrategy } from './oauth.ts'
export { isHostedPreview } from './oauth-strategy.ts'
export { ProviderSignInButton } from './provider-sign-in.tsx'
export { isAuthSuccessMessage } from './recovery-messages.ts'
export { RequireAuth, RequireGlobalAdmin } from './require-auth.tsx'
export { RevokeAccessField } from './revoke-access-field.tsx'
export {
  CurrentUserContext,
  replaceSession,
  sessionQuery,
  useCurrentUser,
  useSession,
  useSignIn,
  useSignUp,
} from './session.ts'
export { useSignOutAndLeave } from './use-sign-out.ts'
