import { hash, verify } from '@node-rs/argon2'
import { betterAuth } from 'better-auth'
import { drizzleAdapter } from 'better-auth/adapters/drizzle'
import { admin } from 'better-auth/plugins/admin'
import { adminAc, userAc } from 'better-auth/plugins/admin/access'
import { sql } from 'drizzle-orm'
import { PASSWORD_MAX, PASSWORD_MIN } from '../../domain/constants.ts'
import type { Config } from '../config.ts'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'
import { accounts, sessions, users, verifications } from '../db/schema/index.ts'
import type { Logger } from '../log.ts'
import { consumeRateLimit } from '../rate-limit.ts'

/** OWASP's argon2id baseline (19 MiB, 2 iterations, 1 lane). */
const argon2Options = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

export const SESSION_LIFETIME_SECONDS = 7 * 24 * 60 * 60
export const SESSION_REFRESH_AFTER_SECONDS = 24 * 60 * 60

/**
 * Paths of better-auth's own router that the app replaces with its own endpoints (which add the
 * spec's validation and per-account rate limits), so they cannot be used to bypass those rules.
 */
export const replacedAuthPaths = ['/sign-up/email', '/sign-in/email']

export function createAuth(deps: { config: Config; db: Db; log: Logger }) {
  const { config, db, log } = deps
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
    verification: { modelName: 'verifications' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: PASSWORD_MIN,
      maxPasswordLength: PASSWORD_MAX,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      password: {
        hash: (password) => hash(password, argon2Options),
        verify: ({ hash: stored, password }) => verify(stored, password),
      },
    },
    rateLimit: {
      enabled: true,
      customStorage: { consume: (key, rule) => consumeRateLimit(db, `auth:${key}`, rule) },
    },
    advanced: {
      cookiePrefix: 'promptfolio',
      useSecureCookies: config.appUrl.startsWith('https://'),
      database: { generateId: () => crypto.randomUUID() },
    },
    plugins: [
      admin({
        defaultRole: 'user',
        adminRoles: ['global_admin'],
        roles: { user: userAc, global_admin: adminAc },
      }),
    ],
    databaseHooks: {
      user: {
        create: {
          // Runs after the sign-up transaction commits: the installation's first account becomes a
          // global admin (the insert into the one-row table decides races), and every account gets
          // a profile with the spec's defaults.
          after: async (user) => {
            const first = await queryRows(
              db,
              sql`INSERT INTO installation (id, first_user_id) VALUES (1, ${user.id})
                  ON CONFLICT (id) DO NOTHING RETURNING first_user_id`,
            )
            if (first.length > 0) {
              await db.execute(sql`UPDATE users SET role = 'global_admin' WHERE id = ${user.id}`)
              log.info('first account became global admin', { userId: user.id })
            }
            await db.execute(sql`INSERT INTO profiles (user_id) VALUES (${user.id}) ON CONFLICT DO NOTHING`)
          },
        },
      },
    },
    logger: {
      level: 'error',
      log: (level, message, ...args) => {
        const fields = { args: args.map((a) => (a instanceof Error ? a.message : a)) }
        if (level === 'error') log.error(`auth: ${message}`, fields)
        else if (level === 'warn') log.warn(`auth: ${message}`, fields)
        else log.debug(`auth: ${message}`, fields)
      },
    },
    telemetry: { enabled: false },
  })
}

export type Auth = ReturnType<typeof createAuth>
