import { hash, verify } from '@node-rs/argon2'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { isAPIError } from 'better-auth/api'
import { admin } from 'better-auth/plugins/admin'
import { adminAc, userAc } from 'better-auth/plugins/admin/access'
import { emailOTP } from 'better-auth/plugins/email-otp'
import { genericOAuth } from 'better-auth/plugins/generic-oauth'
import { sql } from 'drizzle-orm'
import {
  LOGIN_CODE_LENGTH,
  LOGIN_CODE_TOTAL_ATTEMPTS,
  LOGIN_CODE_TTL_SECONDS,
  PASSWORD_MAX,
  PASSWORD_MIN,
  RESET_LINK_TTL_SECONDS,
  SESSION_IDLE_SECONDS,
} from '../../domain/constants.ts'
import { pickLocale } from '../../domain/messages/index.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { accounts, sessions, users, verifications } from '../db/schema/index.ts'
import { addressGroup, CLIENT_ADDRESS_HEADER, SIGN_IN_NEXT_HEADER } from '../http/client-address.ts'
import { type Logger, redactQueryParams } from '../log.ts'
import { consumeRateLimit } from '../rate-limit.ts'
import { scopeBetterAuthStorages } from '../scoped-context.ts'
import { recordSignIn, signOutEverywhereHook } from './audit-events.ts'
import { queueLoginCodeMail, queuePasswordResetMail } from './auth-mails.ts'
import { onAccountCreated, onSignedIn } from './global-admin.ts'

/** OWASP's argon2id baseline (19 MiB, 2 iterations, 1 lane). */
const argon2Options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

/** A session expires after this long unused; each day of use pushes the expiry out again (idle timeout). */
export const SESSION_LIFETIME_SECONDS = SESSION_IDLE_SECONDS
export const SESSION_REFRESH_AFTER_SECONDS = 24 * 60 * 60

/**
 * Paths of better-auth's own router that the app replaces with its own endpoints (which add the
 * spec's validation and per-account rate limits), so they cannot be used to bypass those rules.
 * A path listed here is refused, and so is everything below it (`/reset-password/<token>`).
 */
export const replacedAuthPaths = [
  '/sign-up/email',
  '/sign-in/email',
  '/sign-in/email-otp',
  '/email-otp',
  '/forget-password',
  '/request-password-reset',
  '/reset-password',
]

/**
 * The only paths of better-auth's router that are reachable over HTTP: what the web app calls and
 * the providers' callbacks. Everything else it offers (email verification with its unchecked
 * `callbackURL` redirect, update-user, change/verify-password, account linking, the admin plugin's
 * impersonation and user management...) is either replaced by an app route with the spec's rules
 * and the per-account limits, or not a feature of this app; the server still calls some of them
 * through `auth.api`, which this list does not affect.
 */
export const exposedAuthPaths = {
  // Not get-session or list-sessions: their answers carry session tokens, which no script in the
  // page should read (the cookie is HttpOnly for that reason); /api/v1/session(s) answer instead.
  exact: ['/sign-out', '/sign-in/social', '/revoke-other-sessions', '/error'],
  prefixes: ['/callback/'],
} as const

export function isExposedAuthPath(path: string): boolean {
  return (
    (exposedAuthPaths.exact as readonly string[]).includes(path) ||
    exposedAuthPaths.prefixes.some((prefix) => path.startsWith(prefix))
  )
}

/**
 * better-auth's errors that what a request carries brings about (a provider that is not
 * configured, a made-up or stale provider callback): worth a warning, not a failure of the app.
 */
const requestCausedAuthErrors = [
  'Provider not found',
  'Failed to parse state',
  'State not found',
  'INVALID_CALLBACK_REQUEST',
  'No callback URL found',
  'Unable to link account',
]
const isCausedByRequest = (message: string) =>
  requestCausedAuthErrors.some((start) => message.startsWith(start))

/** better-auth's rate-limit key ("<address>|<path>") with the address grouped like the app's limits. */
export function groupedRateLimitKey(key: string): string {
  const separator = key.indexOf('|')
  return separator < 0 ? key : `${addressGroup(key.slice(0, separator))}${key.slice(separator)}`
}

/** `config.authSecret` must be resolved first (`resolveAuthSecret`). */
export function createAuth(deps: { config: Config; db: Db; log: Logger }) {
  const { config, db, log } = deps
  if (!config.authSecret) throw new Error('createAuth: the auth secret is not resolved (resolveAuthSecret)')
  scopeBetterAuthStorages()
  return betterAuth({
    appName: 'Promptfolio',
    baseURL: config.appUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: config.trustedOrigins,
    disabledPaths: replacedAuthPaths,
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { users, sessions, accounts, verifications },
      transaction: true,
    }),
    user: { modelName: 'users' },
    session: {
      modelName: 'sessions',
      expiresIn: SESSION_LIFETIME_SECONDS,
      updateAge: SESSION_REFRESH_AFTER_SECONDS,
    },
    account: { modelName: 'accounts' },
    // Reset tokens and other one-time values are stored as SHA-256 hashes, never as sent.
    verification: { modelName: 'verifications', storeIdentifier: 'hashed' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: RESET_LINK_TTL_SECONDS,
      // The link in the mail points at the web app's /auth/confirm (built from APP_URL), which
      // trades it for a short reset session; `url` carries the redirect target chosen by the app.
      sendResetPassword: async ({ user, token, url }) => {
        const callback = new URL(url).searchParams.get('callbackURL') ?? ''
        await queuePasswordResetMail(db, config, {
          to: user.email,
          token,
          newTab: new URLSearchParams(callback.split('?')[1] ?? '').get('new_tab') === 'true',
        })
      },
      password: {
        hash: (password) => hash(password, argon2Options),
        verify: ({ hash: stored, password }) => verify(stored, password),
      },
    },
    rateLimit: {
      enabled: true,
      // Its limits (e.g. 3 social sign-in starts per 10 s) scale with RATE_LIMIT_MULTIPLIER like ours,
      // and count per client like ours: its key is "<address>|<path>", the address grouped as ours.
      customStorage: {
        consume: (key, rule) =>
          consumeRateLimit(db, `auth:${groupedRateLimitKey(key)}`, {
            window: rule.window,
            max: rule.max * config.rateLimitMultiplier,
          }),
      },
      // Ending sessions is never refused: a limit there would let anyone keep users signed in.
      customRules: { '/sign-out': false, '/revoke-other-sessions': false },
    },
    advanced: {
      // The client address comes from the app (TRUST_PROXY applied, see http/client-address.ts),
      // never from a header the client controls. Kept whole here (the session records it); the
      // limiter groups IPv6 by /64 itself.
      ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER], ipv6Subnet: 128 },
      cookiePrefix: 'promptfolio',
      useSecureCookies: config.appUrl.startsWith('https://'),
      database: { generateId: () => crypto.randomUUID() },
    },
    socialProviders: {
      ...(config.apple && {
        apple: { clientId: config.apple.clientId, clientSecret: config.apple.clientSecret },
      }),
    },
    plugins: [
      admin({
        defaultRole: 'user',
        adminRoles: ['global_admin'],
        roles: { user: userAc, global_admin: adminAc },
      }),
      emailOTP({
        otpLength: LOGIN_CODE_LENGTH,
        expiresIn: LOGIN_CODE_TTL_SECONDS,
        // Per client the app allows fewer (failure-limits.ts): one stranger cannot kill the code.
        allowedAttempts: LOGIN_CODE_TOTAL_ATTEMPTS,
        storeOTP: 'hashed',
        sendVerificationOTP: async ({ email, otp, type }, ctx) => {
          if (type !== 'sign-in') return
          await queueLoginCodeMail(db, config, {
            to: email,
            code: otp,
            requestLocale: pickLocale(ctx?.headers?.get('accept-language')),
            next: ctx?.headers?.get(SIGN_IN_NEXT_HEADER) ?? undefined,
          })
        },
      }),
      // Google through its OpenID discovery document (GOOGLE_ISSUER, Google's by default): the
      // endpoints and signing keys come from the issuer, and the ID token is verified against them.
      genericOAuth({
        config: config.google
          ? [
              {
                providerId: 'google',
                name: 'Google',
                discoveryUrl: `${config.google.issuer}/.well-known/openid-configuration`,
                clientId: config.google.clientId,
                clientSecret: config.google.clientSecret,
                scopes: ['openid', 'email', 'profile'],
                pkce: true,
                prompt: 'select_account',
                accessType: 'offline',
                requireIdTokenVerification: true,
              },
            ]
          : [],
      }),
    ],
    databaseHooks: {
      user: {
        create: {
          // Runs after the sign-up transaction commits: the first account is recorded (and may
          // become global admin, see global-admin.ts), and every account gets a profile with the
          // spec's defaults.
          after: async (user, ctx) => {
            await onAccountCreated(db, config, log, user.id)
            // The profile starts in the language the person signed up in (the app sends it).
            const locale = pickLocale(ctx?.headers?.get('accept-language'))
            await db.execute(
              sql`INSERT INTO profiles (user_id, preferred_locale) VALUES (${user.id}, ${locale})
                  ON CONFLICT DO NOTHING`,
            )
          },
        },
      },
      session: {
        create: {
          after: async (session, ctx) => {
            await recordSignIn(db, session, ctx as Parameters<typeof recordSignIn>[2]).catch(
              (error: unknown) => log.error('audit: recording a sign-in failed', { err: error }),
            )
            await onSignedIn(db, config, log, session.userId)
          },
        },
      },
    },
    hooks: { after: signOutEverywhereHook(db, log) },
    // better-auth would log every request it refuses (a 401, a 415) as an error of its own; those
    // are the caller's doing. Its warnings and real failures still reach the log below.
    onAPIError: {
      onError: (error) => {
        if (isAPIError(error) && error.statusCode < 500) {
          log.debug('auth: request refused', { status: error.statusCode, reason: error.body?.code })
        } else log.error('auth: request failed', { err: error })
      },
    },
    logger: {
      level: 'warn',
      log: (level, raw, ...args) => {
        // Its failed queries come with their parameters (a session token): redacted.
        const message = redactQueryParams(raw)
        const fields = {
          args: args.map((a) =>
            a instanceof Error
              ? redactQueryParams(a.message)
              : typeof a === 'string'
                ? redactQueryParams(a)
                : a,
          ),
        }
        if (level === 'error' && !isCausedByRequest(message)) log.error(`auth: ${message}`, fields)
        else if (level === 'error') log.warn(`auth: ${message}`, fields)
        else if (level === 'warn') log.warn(`auth: ${message}`, fields)
        else log.debug(`auth: ${message}`, fields)
      },
    },
    telemetry: { enabled: false },
  })
}

export type Auth = ReturnType<typeof createAuth>
