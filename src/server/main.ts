import { fileURLToPath } from 'node:url'
import { createApp } from './app.ts'
import { createAuth } from './auth/auth.ts'
import { adminSetupWarning } from './auth/global-admin.ts'
import { resolveAuthSecret } from './auth/instance-secret.ts'
import { assertWritableDataDir, ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import { collectGarbage } from './garbage.ts'
import { serveApp } from './http/node-server.ts'
import { createPruneJob } from './jobs/prune.ts'
import { createLogger } from './log.ts'
import { createMailDelivery } from './mail/delivery.ts'
import { mailKeyOf } from './mail/sealing.ts'
import { runExports } from './modules/data-rights/exports.ts'
import { planModeNotice } from './modules/plans/plan-mode.ts'
import { createWebhookDelivery } from './modules/webhooks/delivery.ts'
import { sourceMappedStack } from './stack-trace.ts'

async function main() {
  const started = performance.now()
  // Where the start's time goes, in the 'listening' log line (ms; `modules`: from the process's
  // start to here, loading the server's code). `npm run bench:startup` measures the whole.
  const phasesMs: Record<string, number> = { modules: Math.round(started) }
  let phaseStart = started
  const phaseDone = (name: string) => {
    const now = performance.now()
    phasesMs[name] = Math.round(now - phaseStart)
    phaseStart = now
  }
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig()
    if (!config.databaseUrl) assertWritableDataDir(config.dataDir)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }
  const log = createLogger(config.logLevel)
  const database = await openDatabase(
    config.databaseUrl
      ? {
          kind: 'postgres',
          url: config.databaseUrl,
          replicas: { urls: config.databaseReadUrls, maxLagMs: config.databaseReadMaxLagMs },
        }
      : { kind: 'pglite', dataDir: `${config.dataDir}/db` },
  )
  phaseDone('database')
  const applied = await database.migrate()
  phaseDone('migrations')
  if (applied.length > 0) log.info('migrations applied', { applied })

  const adminWarning = await adminSetupWarning(database.db, config)
  if (adminWarning) {
    log.warn(adminWarning)
    console.warn(`\n  !!! ${adminWarning}\n`)
  }

  // Every start, so the choice shows in the log of the start that made the data folder too.
  const planMode = planModeNotice(config.plansEnabled)
  log.info(planMode, { plans: config.plansEnabled ? 'on' : 'off' })
  if (config.plansEnabled) console.warn(`\n  ${planMode}\n`)

  config = { ...config, authSecret: await resolveAuthSecret(database.db, config) }
  const auth = createAuth({ config, db: database.db, log })
  const mail = createMailDelivery({
    database,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    log,
    logSecrets: config.env !== 'production',
    key: mailKeyOf(config),
  })
  const webhooks = createWebhookDelivery({
    database,
    log,
    allowPrivate: config.webhookAllowPrivate,
    appUrl: config.appUrl,
    version: config.version,
  })
  // Side by side: on PostgreSQL each opens a connection of its own to LISTEN on.
  await Promise.all([mail.start(), webhooks.start()])
  const prune = createPruneJob({ db: database.db, log })
  prune.start()
  phaseDone('services')
  let stopping = false
  const { app, keptFetch } = createApp({
    config,
    database,
    auth,
    log,
    webDistDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    closing: () => stopping,
  })

  phaseDone('app')
  const fetch = async (request: Request, env: unknown) => {
    const response = await app.fetch(request, env)
    if (!stopping) return response
    // Shutting down: the client's kept-alive connection closes after this answer instead of holding
    // the server open until the keep-alive timeout. A copy, since some responses' headers are frozen.
    const closing = new Response(response.body, response)
    closing.headers.set('Connection', 'close')
    return closing
  }
  // A kept runtime fetch is answered before Hono (decision 0279).
  const server = serveApp({ fetch, port: config.port, lane: keptFetch }, (info) => {
    log.info('listening', {
      url: config.appUrl,
      port: info.port,
      database: database.kind,
      startupMs: Math.round(performance.now() - started),
      phasesMs: { ...phasesMs, listen: Math.round(performance.now() - phaseStart) },
    })
    console.log(`\n  Promptfolio is running at ${config.appUrl}  (database: ${database.kind})\n`)
    // Exports a stopped process left unfinished are built now.
    void runExports(database.db, log)
    // Start-up is garbage now, and it grew V8's young generation to 16-32 MB. V8's memory reducer
    // gives that back 8 s after a full collection, or, when none has run, about 16 s after the
    // start: collected here (a few tens of ms, once), an idle server is at its idle memory 9 s
    // after it listens (decision 0283).
    try {
      collectGarbage()
    } catch {
      // A runtime without V8's gc(): memory comes down later, on V8's own schedule.
    }
  })

  // Stop accepting connections, let in-flight requests finish, then close the database.
  const shutdown = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info('shutting down', { signal })
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    server.close(async () => {
      await mail.stop().catch((error) => log.error('stopping mail delivery failed', { err: error }))
      await webhooks.stop().catch((error) => log.error('stopping webhook delivery failed', { err: error }))
      await prune.stop().catch((error) => log.error('stopping the pruning job failed', { err: error }))
      await database.close().catch((error) => log.error('closing the database failed', { err: error }))
      process.exit(0)
    })
    // Kept-alive connections with no request in flight; the others close after their answer.
    server.closeIdleConnections()
  }
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))
}

main().catch((error) => {
  console.error(
    error instanceof Error
      ? error.stack
        ? sourceMappedStack(error.stack, error.message)
        : error.message
      : error,
  )
  process.exit(1)
})
