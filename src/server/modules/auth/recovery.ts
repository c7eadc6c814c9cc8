import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { authOperations } from '../../../domain/api/auth.ts'
import { RECOVERY_SESSION_TTL_SECONDS } from '../../../domain/constants.ts'
import { AppError } from '../../../domain/errors.ts'
import { assertNotCommonPassword } from '../../auth/common-passwords.ts'
import { rethrowAuthError } from '../../auth/errors.ts'
import {
  endPasswordRecoveryOf,
  openRecoverySession,
  recoveryEmail,
  replacePassword,
  setPasswordByRecovery,
} from '../../auth/passwords.ts'
import { type AuditWho, auditActorOf } from '../../core/audit.ts'
import { clientAddress, headersForAuth } from '../../http/client-address.ts'
import type { Handlers } from '../../http/operations.ts'
import { recordFailedSignIn } from './failed-sign-ins.ts'
import { enforceRateLimits } from './rate-limits.ts'
import type { AuthRouteDeps } from './sign-in.ts'

/** better-auth's identifier of a reset link's token in the verifications table (stored hashed). */
const resetIdentifier = (token: string) => `reset-password:${token}`
const RECOVERY_PATH = '/api/v1/auth/recovery'

/**
 * The recovery cookie's name: on https with the `__Secure-` prefix, which browsers only accept from
 * a secure origin with the Secure flag (ASVS V3.3.1; `__Host-` would need the path /, and this
 * cookie is only ever sent to RECOVERY_PATH).
 */
export const recoveryCookieName = (secure: boolean) =>
  secure ? '__Secure-promptfolio.recovery' : 'promptfolio.recovery'

/**
 * Password recovery in the spec's shape: the emailed link opens /auth/confirm, which trades the
 * link's token (once) for a short-lived recovery session held in an HttpOnly cookie; /reset-password
 * then sets the new password once, which ends every session of the account. A new link, a
 * completed reset and any other password change end every earlier link and recovery session.
 * Plus the direct reset (current password instead of a mail) and the admins' test reset.
 */
export function recoveryHandlers(
  deps: AuthRouteDeps,
): Pick<
  Handlers<typeof authOperations>,
  | 'requestPasswordReset'
  | 'openRecovery'
  | 'recovery'
  | 'recoverPassword'
  | 'directReset'
  | 'adminSetPassword'
> {
  const { auth, db, config } = deps
  const secure = config.appUrl.startsWith('https://')
  const cookie = recoveryCookieName(secure)

  return {
    requestPasswordReset: async ({ body: input, c }) => {
      await enforceRateLimits(
        db,
        'reset-request',
        { ip: clientAddress(c), account: input.email },
        config.rateLimitMultiplier,
      )
      await endPasswordRecoveryOf(db, input.email)
      // better-auth answers the same for unknown addresses (and simulates the work); so do we.
      await auth.api
        .requestPasswordReset({
          body: {
            email: input.email,
            redirectTo: input.newTab ? '/reset-password?new_tab=true' : '/reset-password',
          },
          headers: headersForAuth(c),
        })
        .catch(rethrowAuthError)
      return { sent: true }
    },
    openRecovery: async ({ body: input, c }) => {
      await enforceRateLimits(db, 'recovery-verify', { ip: clientAddress(c) }, config.rateLimitMultiplier)
      const context = await auth.$context
      // Consuming makes the link single-use, also when two tabs open it at once.
      const consumed = await context.internalAdapter.consumeVerificationValue(
        resetIdentifier(input.tokenHash),
      )
      const user = consumed && (await context.internalAdapter.findUserById(consumed.value))
      if (!user) throw new AppError('validation', 'auth.resetLinkInvalid', { reason: 'invalid_link' })
      setCookie(c, cookie, await openRecoverySession(db, user.id), {
        httpOnly: true,
        sameSite: 'Lax',
        secure,
        path: RECOVERY_PATH,
        maxAge: RECOVERY_SESSION_TTL_SECONDS,
      })
      return { email: user.email }
    },
    recovery: async ({ c }) => {
      const email = await recoveryEmail(db, getCookie(c, cookie))
      if (!email) throw new AppError('not_authenticated', 'auth.resetSessionInvalid')
      return { email }
    },
    recoverPassword: async ({ body: input, c }) => {
      await assertNotCommonPassword(input.password, 'password')
      const token = getCookie(c, cookie)
      // Checked before hashing, so a dead cookie costs no hashing; the write checks again.
      const required = new AppError('not_authenticated', 'auth.resetAuthRequired')
      if (!(await recoveryEmail(db, token))) throw required
      const context = await auth.$context
      if (
        !(await setPasswordByRecovery(
          db,
          token,
          await context.password.hash(input.password),
          clientAddress(c),
          { revokeAccess: input.revokeAccess },
        ))
      ) {
        throw required
      }
      deleteCookie(c, cookie, { path: RECOVERY_PATH, secure })
      return { updated: true }
    },
    // The spec's "temporary solution": no mail, but the current password, checked on the server.
    directReset: async ({ body: input, c }) => {
      await assertNotCommonPassword(input.newPassword, 'newPassword')
      const ip = clientAddress(c)
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
        const hash = await context.password.hash(input.newPassword)
        const who: AuditWho = {
          kind: 'user',
          userId: found.user.id,
          apiKeyId: null,
          email: found.user.email,
          clientAddress: ip,
        }
        await db.transaction((tx) =>
          replacePassword(
            tx,
            found.user.id,
            hash,
            { who, method: 'direct_reset' },
            { revokeAccess: input.revokeAccess },
          ),
        )
      } catch (error) {
        c.get('log').error('direct reset: setting the password failed', { err: error })
        throw new AppError('unexpected', 'auth.newPasswordFailed')
      }
      return { updated: true }
    },
    adminSetPassword: async ({ actor, body: input, c }) => {
      // Testing only (review item 12): a global admin taking over any account with no audit
      // trail and no re-authentication has no place in production.
      if (config.env === 'production') throw new AppError('not_found', 'error.routeNotFound')
      await assertNotCommonPassword(input.newPassword, 'newPassword')
      const context = await auth.$context
      const found = await context.internalAdapter.findUserByEmail(input.email)
      if (!found) throw new AppError('not_found', 'auth.userNotFound')
      const hash = await context.password.hash(input.newPassword)
      await db.transaction((tx) =>
        replacePassword(tx, found.user.id, hash, { who: auditActorOf(actor), method: 'admin_set' }),
      )
      c.get('log').warn('admin set a password', {
        adminId: actor.id,
        userId: found.user.id,
        clientAddress: clientAddress(c),
      })
      return { updated: true }
    },
  }
}
