import { Hono } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { accountOperations } from '../domain/api/account.ts'
import { adminOperations } from '../domain/api/admin.ts'
import { apiKeyOperations } from '../domain/api/api-keys.ts'
import { auditOperations } from '../domain/api/audit.ts'
import { authOperations } from '../domain/api/auth.ts'
import { conversationOperations } from '../domain/api/conversations.ts'
import { dashboardOperations } from '../domain/api/dashboard.ts'
import { dataRightsOperations } from '../domain/api/data-rights.ts'
import { langfuseOperations } from '../domain/api/langfuse.ts'
import { mailOperations } from '../domain/api/mail.ts'
import { modelOperations } from '../domain/api/models.ts'
import { planOperations } from '../domain/api/plans.ts'
import { promptLabelOperations } from '../domain/api/prompt-labels.ts'
import { promptOperations } from '../domain/api/prompts.ts'
import { systemOperations } from '../domain/api/system.ts'
import { teamOperations } from '../domain/api/teams.ts'
import { webhookOperations } from '../domain/api/webhooks.ts'
import { AppError } from '../domain/errors.ts'
import { MCP_PATH } from '../domain/mcp-clients.ts'
import type { Auth } from './auth/auth.ts'
import { authHandler } from './auth/mount.ts'
import { loadSession } from './auth/session.ts'
import { attachRuntimeCache } from './cache/runtime-cache.ts'
import type { Config } from './config.ts'
import { createPlanGate } from './core/plan-gate.ts'
import type { Database } from './db/client.ts'
import { apiAnswers } from './http/api-answers.ts'
import { apiDocsRoutes } from './http/api-docs.ts'
import { identifyClient } from './http/client-address.ts'
import { requestContext } from './http/context.ts'
import type { AppEnv } from './http/env.ts'
import { handleError } from './http/errors.ts'
import { type MountOptions, mountOperations } from './http/operations.ts'
import { readScope } from './http/read-scope.ts'
import { requireSameOriginJson, securityHeaders } from './http/security.ts'
import { serveWebApp } from './http/static-web.ts'
import { streamedBodyLimit } from './http/streamed-body-limit.ts'
import type { Logger } from './log.ts'
import { mailKeyOf } from './mail/sealing.ts'
import { accountHandlers } from './modules/account/routes.ts'
import { adminHandlers } from './modules/admin/routes.ts'
import { bearerKeyAuth } from './modules/api-keys/authenticate.ts'
import { apiKeyHandlers } from './modules/api-keys/routes.ts'
import { auditHandlers } from './modules/audit/routes.ts'
import { authHandlers } from './modules/auth/routes.ts'
import { conversationHandlers } from './modules/conversations/routes.ts'
import { dashboardHandlers } from './modules/dashboard/routes.ts'
import { dataRightsHandlers } from './modules/data-rights/routes.ts'
import { keptFetchLane } from './modules/langfuse/kept-fetch.ts'
import {
  langfuseErrorResponse,
  langfuseHandlers,
  langfuseKeyPair,
  mountLangfuseFallback,
} from './modules/langfuse/routes.ts'
import { mailHandlers } from './modules/mail/routes.ts'
import { mcpRoutes } from './modules/mcp/routes.ts'
import { providerKeyOf } from './modules/models/key-sealing.ts'
import { modelHandlers } from './modules/models/routes.ts'
import { manualBillingProvider } from './modules/plans/billing-provider.ts'
import { planHandlers } from './modules/plans/routes.ts'
import { promptLabelHandlers } from './modules/prompts/label-routes.ts'
import { promptHandlers } from './modules/prompts/routes.ts'
import { systemHandlers } from './modules/system/routes.ts'
import { teamHandlers } from './modules/teams/routes.ts'
import { webhookHandlers } from './modules/webhooks/routes.ts'

export interface AppDeps {
  config: Config
  database: Database
  auth: Auth
  log: Logger
  /** Folder of the built web app; omitted in API tests. */
  webDistDir?: string
  /** Checks of every answer against its operation's declaration (the API tests turn them on). */
  contracts?: MountOptions
  /** The plans' clock (tests move it to end a trial); the system clock by default. */
  now?: () => Date
  /** Whether the process is shutting down: answers then close their connection (main.ts). */
  closing?: () => boolean
}

export const MAX_BODY_BYTES = 1024 * 1024
export const IMPORT_MAX_BODY_BYTES = 32 * 1024 * 1024

export function createApp(deps: AppDeps) {
  const { config, database, auth, log } = deps
  const db = database.db
  // Reads that tolerate a replica's lag (lists, search, dashboards, exports, the runtime fetch).
  const reads = database.reader
  const app = new Hono<AppEnv>()
  const plans = createPlanGate({ enabled: config.plansEnabled, now: deps.now })
  // Prompt runs and conversation replies call models with the same keys, guard and limits.
  const modelDeps = {
    db,
    sealingKey: providerKeyOf(config),
    allowPrivate: config.modelsAllowPrivate,
    rateLimitMultiplier: config.rateLimitMultiplier,
  }
  // The runtime fetch's answers and verified keys in memory, dropped by the database's notifications.
  attachRuntimeCache(database)

  // An error before an operation's handler (the body limit, the origin check) is answered in the
  // envelope of the door asked: Langfuse's under /api/public (the MCP server aside), ours elsewhere.
  app.onError((error, c) =>
    c.req.path.startsWith('/api/public/') && c.req.path !== MCP_PATH
      ? langfuseErrorResponse(error, c)
      : handleError(error, c),
  )
  // Every request but a kept runtime fetch, which main.ts's server answers before Hono with the same
  // headers (decision 0279): a header or log field added here must be added there too.
  app.use('*', requestContext(log))
  app.use('*', identifyClient(config.trustProxy))
  app.use('*', securityHeaders(config.appUrl))
  // Only with read replicas: without, it would be a layer that does nothing on every request.
  if (database.replicas) app.use('/api/*', readScope(database.replicas))

  app.route('/api/docs', apiDocsRoutes())
  app.use('/api/*', apiAnswers())
  const limitTo = (maxSize: number) =>
    bodyLimit({
      maxSize,
      onError: () => {
        throw new AppError('payload_too_large')
      },
    })
  const defaultLimit = limitTo(MAX_BODY_BYTES)
  // An import carries a whole space (up to 10,000 prompts), read as it arrives; every other body is small.
  const importLimit = streamedBodyLimit(IMPORT_MAX_BODY_BYTES)
  // A GET or HEAD carries no body to limit, and asking for one makes the Node adapter build a whole
  // Fetch Request: about 5% of the server's CPU on a list request.
  app.use('/api/*', (c, next) =>
    c.req.method === 'GET' || c.req.method === 'HEAD'
      ? next()
      : (c.req.path === '/api/v1/prompts/import' ? importLimit : defaultLimit)(c, next),
  )
  app.use('/api/*', requireSameOriginJson(config.trustedOrigins, ['/api/auth/callback/']))

  app.on(['GET', 'POST'], '/api/auth/*', authHandler(auth, database))
  app.use('/api/v1/*', bearerKeyAuth(db, plans, config.rateLimitMultiplier, loadSession(auth, db)))

  const keyPair = langfuseKeyPair(db, plans, config.rateLimitMultiplier)
  const mount = <G extends Record<string, unknown>>(
    group: G,
    handlers: Parameters<typeof mountOperations<G>>[2],
  ) =>
    mountOperations(app, group, handlers, {
      ...deps.contracts,
      keyPair,
      envelopes: { langfuse: langfuseErrorResponse },
    })
  mount(systemOperations, systemHandlers({ database, version: config.version }))
  mount(authOperations, authHandlers({ auth, db, database, config }))
  mount(accountOperations, accountHandlers({ db }))
  mount(
    promptOperations,
    promptHandlers({ db, reads, plans, rateLimitMultiplier: config.rateLimitMultiplier }),
  )
  mount(promptLabelOperations, promptLabelHandlers({ db }))
  mount(conversationOperations, conversationHandlers({ ...modelDeps, reads }))
  mount(
    teamOperations,
    teamHandlers({
      db,
      appUrl: config.appUrl,
      mailKey: mailKeyOf(config),
      rateLimitMultiplier: config.rateLimitMultiplier,
      plans,
    }),
  )
  mount(mailOperations, mailHandlers({ db, config }))
  mount(planOperations, planHandlers({ db, plans, provider: manualBillingProvider, appUrl: config.appUrl }))
  mount(dashboardOperations, dashboardHandlers({ db, reads }))
  mount(apiKeyOperations, apiKeyHandlers({ db, plans, appUrl: config.appUrl }))
  mount(adminOperations, adminHandlers({ database, auth, plans, config }))
  mount(dataRightsOperations, dataRightsHandlers({ db, auth, config, log }))
  mount(auditOperations, auditHandlers({ db }))
  mount(
    webhookOperations,
    webhookHandlers({
      db,
      plans,
      allowPrivate: config.webhookAllowPrivate,
      appUrl: config.appUrl,
      rateLimitMultiplier: config.rateLimitMultiplier,
    }),
  )
  // Before the Langfuse operations' fallback, which takes every other path under /api/public.
  app.route(
    MCP_PATH,
    mcpRoutes({ db, plans, rateLimitMultiplier: config.rateLimitMultiplier, version: config.version }),
  )
  mount(modelOperations, modelHandlers(modelDeps))
  mount(
    langfuseOperations,
    langfuseHandlers({ db, reads, plans, rateLimitMultiplier: config.rateLimitMultiplier }),
  )
  mountLangfuseFallback(app, keyPair)

  // One refusal for every unknown path: it carries no stack and nothing of the request, and making
  // one per request was about 2% of a 404's server CPU (the runtime-cache benchmark's reference).
  const routeNotFound = new AppError('not_found', 'error.routeNotFound')
  app.all('/api/*', () => {
    throw routeNotFound
  })

  if (deps.webDistDir) app.use('*', serveWebApp(deps.webDistDir))
  // The runtime fetch of a kept answer, served ahead of all the above by the Node server (main.ts).
  const keptFetch = keptFetchLane({
    db,
    plans,
    rateLimitMultiplier: config.rateLimitMultiplier,
    log,
    appUrl: config.appUrl,
    closing: deps.closing ?? (() => false),
  })
  return { app, keptFetch }
}

export type App = ReturnType<typeof createApp>
