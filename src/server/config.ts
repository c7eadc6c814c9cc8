import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { parseTrustProxy, type TrustProxy } from './trust-proxy.ts'

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional()

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres://')
      .optional(),
  ),
  /** Read replicas (comma-separated postgres:// URLs) for the reads that tolerate their lag (decision 0260). */
  DATABASE_READ_URL: optionalString.pipe(
    z
      .string()
      .transform((value, ctx) => {
        const urls = value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
        const wrong = urls.find((url) => !/^postgres(ql)?:\/\//.test(url))
        if (wrong !== undefined) {
          ctx.addIssue({ code: 'custom', message: 'must be postgres:// URLs, separated by commas' })
          return z.NEVER
        }
        return urls
      })
      .optional(),
  ),
  /** A replica further behind the primary than this many milliseconds is not read from. */
  DATABASE_READ_MAX_LAG_MS: z.coerce.number().int().min(0).default(5000),
  DATA_DIR: z.string().default('./data'),
  AUTH_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, 'must start with smtp:// or smtps://')
      .optional(),
  ),
  MAIL_FROM: z.string().default('Promptfolio <no-reply@localhost>'),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /** The OpenID issuer that Google sign-in talks to (its discovery document); tests point it at a local provider. */
  GOOGLE_ISSUER: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  APPLE_CLIENT_ID: optionalString,
  APPLE_CLIENT_SECRET: optionalString,
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  RATE_LIMIT_MULTIPLIER: z.coerce.number().positive().default(1),
  /** The account that becomes global admin (else the first account does). */
  ADMIN_EMAIL: optionalString.pipe(z.email('must be an email address').toLowerCase().optional()),
  /** Proxies trusted to report the client address: a number of hops or addresses/CIDRs. */
  TRUST_PROXY: optionalString,
  /** Extra origins allowed to call the API with cookies (the Vite dev server in `npm run dev`). */
  EXTRA_TRUSTED_ORIGINS: optionalString,
  /** Plans, trials and limits (on, the product as the spec describes it) or an unlimited private install (off). */
  PLANS: z.enum(['on', 'off'], { error: "must be 'on' or 'off'" }).default('on'),
  /** Webhook targets on private, loopback or link-local addresses: refused (0) or allowed (1, development). */
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1'], { error: "must be '0' or '1'" }).default('0'),
  /** The second, explicit consent that WEBHOOK_ALLOW_PRIVATE=1 needs with NODE_ENV=production. */
  WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION: z.enum(['0', '1'], { error: "must be '0' or '1'" }).default('0'),
  /** Model providers on private, loopback or link-local addresses (Ollama, vLLM on the same network): refused (0) or allowed (1). */
  MODELS_ALLOW_PRIVATE: z.enum(['0', '1'], { error: "must be '0' or '1'" }).default('0'),
  /** This deployment is a hosted preview (1): provider sign-in redirects the page instead of a popup. */
  APP_PREVIEW: z.enum(['0', '1'], { error: "must be '0' or '1'" }).default('0'),
  /** Origins whose pages are hosted previews (comma-separated), for a deployment also reached through a preview host. */
  PREVIEW_ORIGINS: optionalString.pipe(
    z
      .string()
      .transform((value, ctx) => {
        const origins = value
          .split(',')
          .map((entry) => entry.trim())
          .filter(Boolean)
        for (const origin of origins) {
          if (!isOrigin(origin)) {
            ctx.addIssue({ code: 'custom', message: `'${origin}' is not an origin (scheme://host[:port])` })
            return z.NEVER
          }
        }
        return origins
      })
      .optional(),
  ),
})

/** `https://host[:port]` and nothing more: what a page's `location.origin` can equal. */
function isOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return /^https?:$/.test(url.protocol) && url.origin === value
  } catch {
    return false
  }
}

export interface Config {
  env: 'development' | 'production' | 'test'
  port: number
  appUrl: string
  databaseUrl: string | undefined
  /** DATABASE_READ_URL: read replicas of DATABASE_URL's database (empty: none). */
  databaseReadUrls: string[]
  /** DATABASE_READ_MAX_LAG_MS: how far behind a replica may be and still serve reads. */
  databaseReadMaxLagMs: number
  dataDir: string
  /**
   * AUTH_SECRET, or the one generated into DATA_DIR on the embedded database; null with
   * DATABASE_URL and no AUTH_SECRET: the installation's secret in the database is used
   * (`resolveAuthSecret`), so that every process on that database shares it.
   */
  authSecret: string | null
  smtpUrl: string | undefined
  mailFrom: string
  google: { clientId: string; clientSecret: string; issuer: string } | undefined
  apple: { clientId: string; clientSecret: string } | undefined
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
  trustedOrigins: string[]
  /** Scales every rate-limit maximum; test suites raise it. */
  rateLimitMultiplier: number
  /** The global admin's address (ADMIN_EMAIL); see auth/global-admin.ts. */
  adminEmail: string | undefined
  /** Which proxies may say who the client is (TRUST_PROXY); see trust-proxy.ts. */
  trustProxy: TrustProxy
  /** PLANS: trials, limits and the paywall (true) or an unlimited installation (false). */
  plansEnabled: boolean
  /** WEBHOOK_ALLOW_PRIVATE=1: webhooks may target private and loopback addresses (see core/outbound-address.ts). */
  webhookAllowPrivate: boolean
  /** MODELS_ALLOW_PRIVATE=1: model providers may be on private and loopback addresses (local models). */
  modelsAllowPrivate: boolean
  /**
   * Hosted previews (APP_PREVIEW, PREVIEW_ORIGINS): the web app redirects to the sign-in provider
   * there, as in a frame, instead of opening a popup (see features/auth/oauth-strategy.ts).
   */
  preview: { deployment: boolean; origins: string[] }
  version: string
}

export class ConfigError extends Error {}

/** Reads and validates the environment; a wrong value stops the start with one clear line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`)
  }
  const e = parsed.data
  const dataDir = path.resolve(e.DATA_DIR)
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '')
  if (e.DATABASE_READ_URL && !e.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_READ_URL names replicas of a PostgreSQL primary; set DATABASE_URL too',
    )
  }
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET) {
    throw new ConfigError('Invalid configuration: AUTH_SECRET is required when NODE_ENV=production')
  }
  // Webhooks to private addresses let any user with a webhook make the server call its own network:
  // a production server takes that only when told twice.
  if (
    e.NODE_ENV === 'production' &&
    e.WEBHOOK_ALLOW_PRIVATE === '1' &&
    e.WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION !== '1'
  ) {
    throw new ConfigError(
      'Invalid configuration: WEBHOOK_ALLOW_PRIVATE=1 lets webhooks reach private networks; with NODE_ENV=production it also needs WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION=1',
    )
  }
  let trustProxy: TrustProxy
  try {
    trustProxy = parseTrustProxy(e.TRUST_PROXY)
  } catch (error) {
    throw new ConfigError(`Invalid configuration: TRUST_PROXY ${(error as Error).message}`)
  }
  const pair = (id?: string, secret?: string) =>
    id && secret ? { clientId: id, clientSecret: secret } : undefined
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    appUrl,
    databaseUrl: e.DATABASE_URL,
    databaseReadUrls: e.DATABASE_READ_URL ?? [],
    databaseReadMaxLagMs: e.DATABASE_READ_MAX_LAG_MS,
    dataDir,
    authSecret: e.AUTH_SECRET ?? (e.DATABASE_URL ? null : persistentSecret(dataDir)),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google: withIssuer(pair(e.GOOGLE_CLIENT_ID, e.GOOGLE_CLIENT_SECRET), e.GOOGLE_ISSUER ?? GOOGLE_ISSUER),
    apple: pair(e.APPLE_CLIENT_ID, e.APPLE_CLIENT_SECRET),
    logLevel: e.LOG_LEVEL,
    trustedOrigins: [appUrl, ...(e.EXTRA_TRUSTED_ORIGINS?.split(',').map((o) => o.trim()) ?? [])],
    rateLimitMultiplier: e.RATE_LIMIT_MULTIPLIER,
    adminEmail: e.ADMIN_EMAIL,
    trustProxy,
    plansEnabled: e.PLANS === 'on',
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === '1',
    modelsAllowPrivate: e.MODELS_ALLOW_PRIVATE === '1',
    preview: { deployment: e.APP_PREVIEW === '1', origins: e.PREVIEW_ORIGINS ?? [] },
    version: readVersion(),
  }
}

export const GOOGLE_ISSUER = 'https://accounts.google.com'

function withIssuer<T extends object>(
  pair: T | undefined,
  issuer: string,
): (T & { issuer: string }) | undefined {
  return pair ? { ...pair, issuer: issuer.replace(/\/+$/, '') } : undefined
}

/** Without AUTH_SECRET on the embedded database, a secret is generated once and kept in the data folder. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret')
  if (existsSync(file)) return readFileSync(file, 'utf8').trim()
  const secret = randomBytes(32).toString('base64url')
  try {
    mkdirSync(dataDir, { recursive: true })
    writeFileSync(file, `${secret}\n`, { mode: 0o600 })
  } catch (error) {
    throw dataDirError(dataDir, error)
  }
  return secret
}

function dataDirError(dataDir: string, error: unknown): ConfigError {
  const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
  return new ConfigError(
    `Cannot write to DATA_DIR (${dataDir}): ${reason}. Make it a folder the server's user can write, or set DATA_DIR to one.`,
  )
}

/**
 * The embedded database keeps its files in DATA_DIR: a folder that cannot be written (read-only,
 * a file, another user's, a full disk) stops the start with one clear line (a ConfigError)
 * instead of failing later, inside the database, on the first write.
 */
export function assertWritableDataDir(dataDir: string): void {
  for (const dir of [dataDir, path.join(dataDir, 'db')]) {
    if (dir !== dataDir && !existsSync(dir)) continue
    const probe = path.join(dir, `.write-test-${process.pid}`)
    try {
      mkdirSync(dir, { recursive: true })
      writeFileSync(probe, 'ok')
      rmSync(probe)
    } catch (error) {
      throw dataDirError(dir, error)
    }
  }
}

function readVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string
  }
  return pkg.version
}
