import { isAPIError } from 'better-auth/api'
import { eq } from 'drizzle-orm'
import { type Context, Hono } from 'hono'
import {
  type AuthProviders,
  sendCodeInput,
  signInInput,
  signUpInput,
  verifyCodeInput,
} from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Auth } from '../../auth/auth.ts'
import { assertNotCommonPassword } from '../../auth/common-passwords.ts'
import { appErrorFromAuth, rethrowAuthError } from '../../auth/errors.ts'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { users } from '../../db/schema/index.ts'
import { clientIp } from '../../http/context.ts'
import type { AppEnv } from '../../http/env.ts'
import { jsonBody } from '../../http/input.ts'
import { toCurrentUser } from '../../http/session.ts'
import { recordFailedSignIn } from './failed-sign-ins.ts'
import { enforceRateLimits } from './rate-limits.ts'

export interface AuthRouteDeps {
  auth: Auth
  db: Db
  config: Pick<Config, 'rateLimitMultiplier' | 'google' | 'apple' | 'smtpUrl' | 'appUrl'>
}

/** Passes better-auth's Set-Cookie headers (the session cookie) on to the app's response. */
export function passCookies(c: Context, headers: Headers) {
  for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true })
}

/**
 * Sign-up, password sign-in and the emailed-code sign-in: the spec's validation and per-IP and
 * per-account rate limits in front of better-auth, which creates users, codes and session cookies.
 */
export function authRoutes(deps: AuthRouteDeps) {
  const { auth, db, config } = deps
  const limit = (c: Context, action: Parameters<typeof enforceRateLimits>[1], account: string) =>
    enforceRateLimits(db, action, { ip: clientIp(c), account }, config.rateLimitMultiplier)

  return (
    new Hono<AppEnv>()
      .post('/sign-up', async (c) => {
        const input = await jsonBody(c, signUpInput)
        assertNotCommonPassword(input.password, 'password')
        await limit(c, 'sign-up', input.email)
        const result = await auth.api
          .signUpEmail({
            body: { email: input.email, password: input.password, name: '' },
            headers: c.req.raw.headers,
            returnHeaders: true,
          })
          .catch(rethrowAuthError)
        passCookies(c, result.headers)
        // Re-read: the first account's global role is granted by a hook after the sign-up commits.
        const [user] = await db.select().from(users).where(eq(users.id, result.response.user.id))
        return c.json({ user: toCurrentUser(user ?? result.response.user) }, 201)
      })
      .post('/sign-in', async (c) => {
        const input = await jsonBody(c, signInInput)
        await limit(c, 'sign-in', input.email)
        const result = await auth.api
          .signInEmail({
            body: { email: input.email, password: input.password, rememberMe: true },
            headers: c.req.raw.headers,
            returnHeaders: true,
          })
          .catch(async (error: unknown) => {
            if (isAPIError(error) && error.statusCode === 401) {
              await recordFailedSignIn(db, {
                email: input.email,
                method: 'password',
                reason: 'invalid_credentials',
                ip: clientIp(c),
              })
            }
            return rethrowAuthError(error)
          })
        passCookies(c, result.headers)
        return c.json({ user: toCurrentUser(result.response.user) })
      })
      // Step 1 of the code sign-in (and "Resend code"): the same answer whether or not an account
      // exists, since a first sign-in by code creates the account.
      .post('/code/send', async (c) => {
        const input = await jsonBody(c, sendCodeInput)
        await limit(c, 'code-send', input.email)
        await auth.api
          .sendVerificationOTP({ body: { email: input.email, type: 'sign-in' }, headers: c.req.raw.headers })
          .catch((error: unknown) => {
            c.get('log').error('sending a sign-in code failed', { err: error })
            throw new AppError('transient', 'auth.codeSendFailed')
          })
        return c.json({ sent: true })
      })
      .post('/code/verify', async (c) => {
        const input = await jsonBody(c, verifyCodeInput)
        await limit(c, 'code-verify', input.email)
        const result = await auth.api
          .signInEmailOTP({
            body: { email: input.email, otp: input.code },
            headers: c.req.raw.headers,
            returnHeaders: true,
          })
          .catch(async (error: unknown) => {
            if (!isAPIError(error)) throw error
            const body = (error.body ?? null) as { code?: string } | null
            await recordFailedSignIn(db, {
              email: input.email,
              method: 'code',
              reason: body?.code?.toLowerCase() ?? 'failed',
              ip: clientIp(c),
            })
            const mapped = appErrorFromAuth(error.statusCode, body)
            throw mapped.options.reason ? mapped : new AppError('validation', 'auth.codeVerifyFailed')
          })
        passCookies(c, result.headers)
        const [user] = await db.select().from(users).where(eq(users.id, result.response.user.id))
        return c.json({ user: toCurrentUser(user ?? result.response.user) })
      })
      .get('/providers', (c) =>
        c.json({
          google: config.google !== undefined,
          apple: config.apple !== undefined,
          smtp: config.smtpUrl !== undefined,
          appUrl: config.appUrl,
        } satisfies AuthProviders),
      )
  )
}
