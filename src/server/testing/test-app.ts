import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import pg from 'pg'
import { createApp } from '../app.ts'
import { createAuth } from '../auth/auth.ts'
import { type Config, loadConfig } from '../config.ts'
import { type Database, openDatabase } from '../db/client.ts'
import { createLogger, type Logger } from '../log.ts'
import { createMailDelivery, type MailDelivery } from '../mail/delivery.ts'
import { mailKeyOf } from '../mail/sealing.ts'
import { createWebhookDelivery, type WebhookDelivery } from '../modules/webhooks/delivery.ts'

export const TEST_ORIGIN = 'http://localhost:3000'

export interface TestApp {
  app: ReturnType<typeof createApp>['app']
  /** The kept-fetch lane, which `listen` serves ahead of `app` as main.ts does. */
  keptFetch: ReturnType<typeof createApp>['keptFetch']
  database: Database
  config: Config
  /** The outbox worker; running (delivering to `config.smtpUrl`) when the test app has SMTP. */
  mail: MailDelivery
  /** The webhook worker; not started (tests call `deliverDue()` or `start()`). */
  webhooks: WebhookDelivery
  close(): Promise<void>
}

/**
 * The test apps made and not closed yet in this process. The API test files of a worker share its
 * process (`isolate: false`, vitest.config.ts), so file-boundary.setup.ts closes what a file left
 * open, and fails that file.
 */
const openApps = new Set<TestApp>()

export function openTestApps(): TestApp[] {
  return [...openApps]
}

/** How a test app is made, beyond its configuration. */
export interface TestAppOptions {
  log?: Logger
  now?: () => Date
  /** Whether the app is shutting down (main.ts's flag); never by default. */
  closing?: () => boolean
  /** TEST_DB=postgres: the server to make the schema on and connect to (default TEST_DATABASE_URL). */
  databaseUrl?: string
  /** Wraps the database's LISTEN, e.g. to hand notifications on late, as a slow network would. */
  listen?: (listen: Database['listen']) => Database['listen']
}

/**
 * A fresh app on its own database: in-memory PGlite by default, or (TEST_DB=postgres) a new schema
 * in TEST_DATABASE_URL that is dropped again on close, so runs never see each other's rows.
 *
 * Plans are off (PLANS=off, unlimited) unless a test asks for them with `{ plansEnabled: true }`:
 * suites about prompts or teams create what they need without meeting a trial's limits; the plan
 * tests (src/server/modules/plans/) turn them on, and may pass `now` to move the plans' clock.
 */
export async function createTestApp(
  overrides: Partial<Config> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      APP_URL: TEST_ORIGIN,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      DATA_DIR: '.tmp/test-data',
      PLANS: 'off',
    }),
    rateLimitMultiplier: 1000,
    ...overrides,
  }
  const { database, dropSchema } = await openTestDatabase(options.databaseUrl)
  try {
    return await testAppOn(database, dropSchema, config, options)
  } catch (error) {
    // No app to close: its schema would stay in the test database for good. The failure to make
    // the app is the one to report, with the cleanup's if that failed too.
    await database
      .close()
      .finally(dropSchema)
      .catch((cleanup: unknown) => {
        throw new AggregateError([error, cleanup], (error as Error).message)
      })
    throw error
  }
}

async function testAppOn(
  database: Database,
  dropSchema: () => Promise<void>,
  config: Config,
  options: TestAppOptions,
): Promise<TestApp> {
  await database.migrate()
  if (options.listen) database.listen = options.listen(database.listen)
  const log = options.log ?? createLogger(config.logLevel)
  const auth = createAuth({ config, db: database.db, log })
  const { app, keptFetch } = createApp({
    config,
    database,
    auth,
    log,
    contracts: { checkContracts: true },
    now: options.now,
    closing: options.closing,
  })
  const mail = createMailDelivery({
    database,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    log,
    key: mailKeyOf(config),
  })
  if (config.smtpUrl) await mail.start()
  const webhooks = createWebhookDelivery({
    database,
    log,
    allowPrivate: config.webhookAllowPrivate,
    appUrl: config.appUrl,
    version: config.version,
  })
  const testApp: TestApp = {
    app,
    keptFetch,
    database,
    config,
    mail,
    webhooks,
    close: async () => {
      openApps.delete(testApp)
      try {
        await webhooks.stop()
        await mail.stop()
      } finally {
        await database.close().finally(dropSchema)
      }
    },
  }
  openApps.add(testApp)
  return testApp
}

async function openTestDatabase(
  postgresUrl = process.env.TEST_DATABASE_URL,
): Promise<{ database: Database; dropSchema: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') {
    // The run's migrated template (pglite-template.setup.ts), where the project provides one; a
    // benchmark outside vitest (bench/plans) starts empty.
    const templatePath = process.env.VITEST
      ? (await import('vitest')).inject('pgliteTemplatePath')
      : undefined
    const template = templatePath ? new Blob([readFileSync(templatePath)]) : undefined
    return { database: await openDatabase({ kind: 'pglite', template }), dropSchema: async () => {} }
  }
  const url = postgresUrl
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query((await postgresTemplate(url))?.(schema) ?? `CREATE SCHEMA ${schema}`)
  await admin.end()
  const database = await openDatabase({ kind: 'postgres', url, searchPath: schema, max: 20 })
  return {
    database,
    dropSchema: async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`DROP SCHEMA ${schema} CASCADE`)
      await client.end()
    },
  }
}

/**
 * The SQL that makes a schema with every migration applied, as the run's template
 * (postgres-template.setup.ts) has it under the name given; undefined outside vitest, for another
 * server than TEST_DATABASE_URL's, or when no template was made: the test app then migrates.
 */
async function postgresTemplate(url: string): Promise<((schema: string) => string) | undefined> {
  if (!process.env.VITEST || url !== process.env.TEST_DATABASE_URL) return undefined
  const { inject } = await import('vitest')
  const sql = inject('postgresTemplateSql')
  const template = inject('postgresTemplateSchema')
  if (!sql || !template) return undefined
  return (schema) => sql.replaceAll(template, schema)
}
