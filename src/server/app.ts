import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { compress } from 'hono/compress'
import { AppError } from '../domain/errors.ts'
import type { Auth } from './auth/auth.ts'
import { authHandler } from './auth/mount.ts'
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import { requestContext } from './http/context.ts'
import type { AppEnv } from './http/env.ts'
import { handleError } from './http/errors.ts'
import { requireSameOriginJson, securityHeaders } from './http/security.ts'
import { loadSession } from './http/session.ts'
import { serveWebApp } from './http/static-web.ts'
import type { Logger } from './log.ts'
import { authDiagnosticsRoutes } from './modules/auth/diagnostics.ts'
import { recoveryRoutes } from './modules/auth/recovery-routes.ts'
import { authRoutes } from './modules/auth/routes.ts'
import { conversationRoutes, messageRoutes, promptUsageRoutes } from './modules/conversations/routes.ts'
import { mailOutboxRoutes } from './modules/mail/routes.ts'
import { meRoutes, sessionListRoutes, sessionRoutes } from './modules/me/routes.ts'
import { profileRoutes } from './modules/profile/routes.ts'
import { promptRoutes } from './modules/prompts/routes.ts'
import { apiDocumentRoutes } from './modules/system/api-document.ts'
import { healthRoutes } from './modules/system/health.ts'
import { invitationRoutes, teamRoutes } from './modules/teams/routes.ts'

export interface AppDeps {
  config: Config
  database: Database
  auth: Auth
  log: Logger
  /** Folder of the built web app; omitted in API tests. */
  webDistDir?: string
}

export const MAX_BODY_BYTES = 1024 * 1024

export function createApp(deps: AppDeps) {
  const { config, database, auth, log } = deps
  const db = database.db
  const app = new Hono<AppEnv>()

  app.onError(handleError)
  app.use('*', requestContext(log))
  app.use('*', securityHeaders(config.appUrl))

  app.use('/api/*', compress())
  app.use('/api/*', async (c, next) => {
    await next()
    c.header('Cache-Control', 'no-store')
  })
  app.use(
    '/api/*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError('payload_too_large')
      },
    }),
  )
  app.use('/api/*', requireSameOriginJson(config.trustedOrigins, ['/api/auth/callback/']))

  app.route('/api/health', healthRoutes(database, config.version))
  app.on(['GET', 'POST'], '/api/auth/*', authHandler(auth))

  const v1 = new Hono<AppEnv>()
  v1.use('*', loadSession(auth))
  v1.route('/auth', authRoutes({ auth, db, config }))
  v1.route('/auth', recoveryRoutes({ auth, db, config }))
  v1.route('/auth/diagnostics', authDiagnosticsRoutes({ auth, database, config }))
  v1.route('/me', meRoutes())
  v1.route('/session', sessionRoutes())
  v1.route('/sessions', sessionListRoutes({ db }))
  v1.route('/profile', profileRoutes({ db }))
  v1.route('/mail-outbox', mailOutboxRoutes({ db, config }))
  v1.route(
    '/teams',
    teamRoutes({ db, appUrl: config.appUrl, rateLimitMultiplier: config.rateLimitMultiplier }),
  )
  v1.route('/invitations', invitationRoutes({ db }))
  v1.route('/prompts', promptRoutes({ db }))
  v1.route('/conversations', conversationRoutes({ db }))
  v1.route('/messages', messageRoutes({ db }))
  v1.route('/prompts', promptUsageRoutes({ db }))
  v1.route('/openapi.json', apiDocumentRoutes(config.version))
  app.route('/api/v1', v1)

  app.all('/api/*', () => {
    throw new AppError('not_found', 'error.routeNotFound')
  })

  if (deps.webDistDir) app.use('*', serveWebApp(deps.webDistDir).handler)
  return app
}

export type App = ReturnType<typeof createApp>
