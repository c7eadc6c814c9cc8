import { isAPIError } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import type { authOperations } from '../../../domain/api/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Auth } from '../../auth/auth.ts'
import { assertNotCommonPassword } from '../../auth/common-passwords.ts'
import { appErrorFromAuth, rethrowAuthError } from '../../auth/errors.ts'
import { toCurrentUser } from '../../auth/session.ts'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { users } from '../../db/schema/index.ts'
import { clientAddress, headersForAuth, SIGN_IN_NEXT_HEADER } from '../../http/client-address.ts'
import type { AppEnv } from '../../http/env.ts'
import type { Handlers } from '../../http/operations.ts'
import { recordFailedSignIn } from './failed-sign-ins.ts'
import { assertMayTry, forgetClientFailures, recordFailure } from './failure-limits.ts'
import { enforceRateLimits } from './rate-limits.ts'

export interface AuthRouteDeps {
  auth: Auth
  db: Db
  config: Pick<
    Config,
    'env' | 'rateLimitMultiplier' | 'google' | 'apple' | 'smtpUrl' | 'appUrl' | 'mailFrom' | 'preview'
  >
}

/** Passes better-auth's Set-Cookie headers (the session cookie) on to the app's response. */
export function passCookies(c: Context, headers: Headers) {
  for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true })
}

type SignInOperations = Pick<
  Handlers<typeof authOperations>,
  'signUp' | 'signIn' | 'sendCode' | 'verifyCode' | 'providers'
>

/**
 * Sign-up, password sign-in and the emailed-code sign-in: the spec's validation, per-address and
 * per-account rate limits and the failure limits (failure-limits.ts) in front of better-auth, which
 * creates users, codes and session cookies.
 */
export function signInHandlers(deps: AuthRouteDeps): SignInOperations {
  const { auth, db, config } = deps
  // Re-read: the global role may have been granted by a hook after the sign-in (global-admin.ts).
  const signedInUser = async (signedIn: Parameters<typeof toCurrentUser>[0] & { id: string }) => {
    const [user] = await db.select().from(users).where(eq(users.id, signedIn.id))
    return toCurrentUser(user ?? signedIn)
  }
  const limit = (c: Context<AppEnv>, action: Parameters<typeof enforceRateLimits>[1], account: string) =>
    enforceRateLimits(db, action, { ip: clientAddress(c), account }, config.rateLimitMultiplier)

  return {
    signUp: async ({ body: input, c }) => {
      await assertNotCommonPassword(input.password, 'password')
      await limit(c, 'sign-up', input.email)
      const result = await auth.api
        .signUpEmail({
          body: { email: input.email, password: input.password, name: '' },
          headers: headersForAuth(c),
          returnHeaders: true,
        })
        .catch(rethrowAuthError)
      passCookies(c, result.headers)
      return { user: await signedInUser(result.response.user) }
    },
    signIn: async ({ body: input, c }) => {
      const who = { ip: clientAddress(c), account: input.email }
      await limit(c, 'sign-in', input.email)
      await assertMayTry(db, 'sign-in', who, config.rateLimitMultiplier)
      const result = await auth.api
        .signInEmail({
          body: { email: input.email, password: input.password, rememberMe: true },
          headers: headersForAuth(c),
          returnHeaders: true,
        })
        .catch(async (error: unknown) => {
          if (isAPIError(error) && error.statusCode === 401) {
            await recordFailure(db, 'sign-in', who)
            await recordFailedSignIn(db, {
              email: input.email,
              method: 'password',
              reason: 'invalid_credentials',
              ip: who.ip,
            })
          }
          return rethrowAuthError(error)
        })
      await forgetClientFailures(db, 'sign-in', who)
      passCookies(c, result.headers)
      return { user: await signedInUser(result.response.user) }
    },
    // Step 1 of the code sign-in (and "Resend code"): the same answer whether or not an account
    // exists, since a first sign-in by code creates the account.
    sendCode: async ({ body: input, c }) => {
      await limit(c, 'code-send', input.email)
      const headers = headersForAuth(c)
      if (input.next) headers.set(SIGN_IN_NEXT_HEADER, input.next)
      await auth.api
        .sendVerificationOTP({ body: { email: input.email, type: 'sign-in' }, headers })
        .catch((error: unknown) => {
          c.get('log').error('sending a sign-in code failed', { err: error })
          throw new AppError('transient', 'auth.codeSendFailed')
        })
      // A new code: this client's wrong tries at the old one no longer count against it.
      await forgetClientFailures(db, 'code-verify', { ip: clientAddress(c), account: input.email })
      return { sent: true }
    },
    verifyCode: async ({ body: input, c }) => {
      const who = { ip: clientAddress(c), account: input.email }
      await limit(c, 'code-verify', input.email)
      await assertMayTry(db, 'code-verify', who, config.rateLimitMultiplier)
      const result = await auth.api
        .signInEmailOTP({
          body: { email: input.email, otp: input.code },
          headers: headersForAuth(c),
          returnHeaders: true,
        })
        .catch(async (error: unknown) => {
          if (!isAPIError(error)) throw error
          const body = (error.body ?? null) as { code?: string } | null
          await recordFailure(db, 'code-verify', who)
          await recordFailedSignIn(db, {
            email: input.email,
            method: 'code',
            reason: body?.code?.toLowerCase() ?? 'failed',
            ip: who.ip,
          })
          const mapped = appErrorFromAuth(error.statusCode, body)
          throw mapped.options.reason ? mapped : new AppError('validation', 'auth.codeVerifyFailed')
        })
      await forgetClientFailures(db, 'code-verify', who)
      passCookies(c, result.headers)
      return { user: await signedInUser(result.response.user) }
    },
    providers: async () => ({
      google: config.google !== undefined,
      apple: config.apple !== undefined,
      smtp: config.smtpUrl !== undefined,
      appUrl: config.appUrl,
      adminPasswordReset: config.env !== 'production',
      preview: config.preview,
    }),
  }
}
