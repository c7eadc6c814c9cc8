import { randomBytes } from 'node:crypto'
import { isAPIError } from 'better-auth/api'
import { Hono } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import {
  adminSetPasswordInput,
  directResetInput,
  newPasswordInput,
  passwordResetRequestInput,
  recoveryVerifyInput,
} from '../../../domain/auth.ts'
import { RECOVERY_SESSION_TTL_SECONDS } from '../../../domain/constants.ts'
import { AppError } from '../../../domain/errors.ts'
import { assertNotCommonPassword } from '../../auth/common-passwords.ts'
import { rethrowAuthError } from '../../auth/errors.ts'
import { replacePassword } from '../../auth/passwords.ts'
import { clientIp } from '../../http/context.ts'
import type { AppEnv, UserEnv } from '../../http/env.ts'
import { jsonBody } from '../../http/input.ts'
import { requireGlobalAdmin } from '../../http/session.ts'
import { recordFailedSignIn } from './failed-sign-ins.ts'
import { enforceRateLimits } from './rate-limits.ts'
import type { AuthRouteDeps } from './routes.ts'

/** better-auth's identifier of a reset token in the verifications table (stored hashed). */
const resetIdentifier = (token: string) => `reset-password:${token}`
const RECOVERY_COOKIE = 'promptfolio.recovery'
const RECOVERY_PATH = '/api/v1/auth/recovery'

/**
 * Password recovery in the spec's shape: the emailed link opens /auth/confirm, which trades the
 * link's token (once) for a short-lived reset session held in an HttpOnly cookie; /reset-password
 * then sets the new password through better-auth, which ends every session of the account.
 * Plus the direct reset (current password instead of a mail) and the admins' test reset.
 */
export function recoveryRoutes(deps: AuthRouteDeps) {
  const { auth, db, config } = deps
  const secure = config.appUrl.startsWith('https://')

  const readRecovery = async (token: string | undefined) => {
    if (!token) return null
    const context = await auth.$context
    const verification = await context.internalAdapter.findVerificationValue(resetIdentifier(token))
    if (!verification || verification.expiresAt < new Date()) return null
    const user = await context.internalAdapter.findUserById(verification.value)
    return user ? { token, email: user.email } : null
  }

  return (
    new Hono<AppEnv>()
      .post('/password-reset', async (c) => {
        const input = await jsonBody(c, passwordResetRequestInput)
        await enforceRateLimits(
          db,
          'reset-request',
          { ip: clientIp(c), account: input.email },
          config.rateLimitMultiplier,
        )
        // better-auth answers the same for unknown addresses (and simulates the work); so do we.
        await auth.api
          .requestPasswordReset({
            body: {
              email: input.email,
              redirectTo: input.newTab ? '/reset-password?new_tab=true' : '/reset-password',
            },
            headers: c.req.raw.headers,
          })
          .catch(rethrowAuthError)
        return c.json({ sent: true })
      })
      .post('/recovery', async (c) => {
        const input = await jsonBody(c, recoveryVerifyInput)
        await enforceRateLimits(db, 'recovery-verify', { ip: clientIp(c) }, config.rateLimitMultiplier)
        const context = await auth.$context
        // Consuming makes the link single-use, also when two tabs open it at once.
        const consumed = await context.internalAdapter.consumeVerificationValue(
          resetIdentifier(input.tokenHash),
        )
        if (!consumed || consumed.expiresAt < new Date()) {
          throw new AppError('validation', 'auth.resetLinkInvalid', { reason: 'invalid_link' })
        }
        const user = await context.internalAdapter.findUserById(consumed.value)
        if (!user) throw new AppError('validation', 'auth.resetLinkInvalid', { reason: 'invalid_link' })
        const token = randomBytes(32).toString('base64url')
        await context.internalAdapter.createVerificationValue({
          identifier: resetIdentifier(token),
          value: user.id,
          expiresAt: new Date(Date.now() + RECOVERY_SESSION_TTL_SECONDS * 1000),
        })
        setCookie(c, RECOVERY_COOKIE, token, {
          httpOnly: true,
          sameSite: 'Lax',
          secure,
          path: RECOVERY_PATH,
          maxAge: RECOVERY_SESSION_TTL_SECONDS,
        })
        return c.json({ email: user.email })
      })
      .get('/recovery', async (c) => {
        const recovery = await readRecovery(getCookie(c, RECOVERY_COOKIE))
        if (!recovery) throw new AppError('not_authenticated', 'auth.resetSessionInvalid')
        return c.json({ email: recovery.email })
      })
      .post('/recovery/password', async (c) => {
        const input = await jsonBody(c, newPasswordInput)
        assertNotCommonPassword(input.password, 'password')
        const recovery = await readRecovery(getCookie(c, RECOVERY_COOKIE))
        if (!recovery) throw new AppError('not_authenticated', 'auth.resetAuthRequired')
        await auth.api
          .resetPassword({ body: { newPassword: input.password, token: recovery.token } })
          .catch((error: unknown) => {
            if (
              isAPIError(error) &&
              (error.body as { code?: string } | undefined)?.code === 'INVALID_TOKEN'
            ) {
              throw new AppError('not_authenticated', 'auth.resetAuthRequired')
            }
            return rethrowAuthError(error)
          })
        deleteCookie(c, RECOVERY_COOKIE, { path: RECOVERY_PATH, secure })
        return c.json({ updated: true })
      })
      // The spec's "temporary solution": no mail, but the current password, checked on the server.
      .post('/direct-reset', async (c) => {
        const input = await jsonBody(c, directResetInput)
        assertNotCommonPassword(input.newPassword, 'newPassword')
        const ip = clientIp(c)
        await enforceRateLimits(db, 'direct-reset', { ip, account: input.email }, config.rateLimitMultiplier)
        const context = await auth.$context
        const found = await context.internalAdapter.findUserByEmail(input.email, { includeAccounts: true })
        const credential = found?.accounts.find((account) => account.providerId === 'credential')
        const valid = credential?.password
          ? await context.password.verify({ hash: credential.password, password: input.currentPassword })
          : // No such account: spend the same hashing time, so the answer does not reveal it.
            await context.password.hash(input.currentPassword).then(() => false)
        if (!found || !valid) {
          await recordFailedSignIn(db, {
            email: input.email,
            method: 'direct_reset',
            reason: 'invalid_credentials',
            ip,
          })
          throw new AppError('not_authenticated', 'auth.directResetInvalid')
        }
        try {
          await replacePassword(db, found.user.id, await context.password.hash(input.newPassword))
        } catch (error) {
          c.get('log').error('direct reset: setting the password failed', { err: error })
          throw new AppError('unexpected', 'auth.newPasswordFailed')
        }
        return c.json({ updated: true })
      })
      .route(
        '/admin',
        new Hono<UserEnv>().use(requireGlobalAdmin).post('/set-password', async (c) => {
          const input = await jsonBody(c, adminSetPasswordInput)
          assertNotCommonPassword(input.newPassword, 'newPassword')
          const context = await auth.$context
          const found = await context.internalAdapter.findUserByEmail(input.email)
          if (!found) throw new AppError('not_found', 'auth.userNotFound')
          await replacePassword(db, found.user.id, await context.password.hash(input.newPassword))
          c.get('log').info('admin set a password', { adminId: c.get('user').id, userId: found.user.id })
          return c.json({ updated: true })
        }),
      )
  )
}
