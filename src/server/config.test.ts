import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

const secret = 'x'.repeat(32)
const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-config-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({ AUTH_SECRET: secret })
    expect(config.port).toBe(3000)
    expect(config.appUrl).toBe('http://localhost:3000')
    expect(config.databaseUrl).toBeUndefined()
    expect(config.dataDir).toBe(path.resolve('./data'))
    expect(config.smtpUrl).toBeUndefined()
    expect(config.logLevel).toBe('info')
    expect(config.rateLimitMultiplier).toBe(1)
    expect(config.trustProxy).toEqual({ kind: 'none' })
    expect(config.adminEmail).toBeUndefined()
    expect(loadConfig({ AUTH_SECRET: secret, ADMIN_EMAIL: ' Ada@Example.com ' }).adminEmail).toBe(
      'ada@example.com',
    )
    expect(loadConfig({ AUTH_SECRET: secret, TRUST_PROXY: '10.0.0.0/8' }).trustProxy.kind).toBe('networks')
    expect(loadConfig({ AUTH_SECRET: secret, PORT: '8080' }).appUrl).toBe('http://localhost:8080')
    expect(loadConfig({ AUTH_SECRET: secret }).plansEnabled).toBe(true)
    expect(loadConfig({ AUTH_SECRET: secret, PLANS: 'off' }).plansEnabled).toBe(false)
    expect(loadConfig({ AUTH_SECRET: secret }).preview).toEqual({ deployment: false, origins: [] })
  })

  it('reads read replicas (DATABASE_READ_URL, comma-separated) and their lag bound, only beside DATABASE_URL', () => {
    const primary = 'postgres://app@db-primary/promptfolio'
    const none = loadConfig({ AUTH_SECRET: secret, DATABASE_URL: primary })
    expect(none.databaseReadUrls).toEqual([])
    expect(none.databaseReadMaxLagMs).toBe(5000)
    const two = loadConfig({
      AUTH_SECRET: secret,
      DATABASE_URL: primary,
      DATABASE_READ_URL:
        ' postgres://app@db-replica-1/promptfolio, postgresql://app@db-replica-2/promptfolio ,',
      DATABASE_READ_MAX_LAG_MS: '2000',
    })
    expect(two.databaseReadUrls).toEqual([
      'postgres://app@db-replica-1/promptfolio',
      'postgresql://app@db-replica-2/promptfolio',
    ])
    expect(two.databaseReadMaxLagMs).toBe(2000)
    expect(() =>
      loadConfig({ AUTH_SECRET: secret, DATABASE_URL: primary, DATABASE_READ_URL: 'mysql://replica/db' }),
    ).toThrow('Invalid configuration: DATABASE_READ_URL must be postgres:// URLs, separated by commas')
    expect(() =>
      loadConfig({ AUTH_SECRET: secret, DATABASE_URL: primary, DATABASE_READ_MAX_LAG_MS: '-1' }),
    ).toThrow(ConfigError)
    expect(() =>
      loadConfig({
        AUTH_SECRET: secret,
        DATA_DIR: dataDir,
        DATABASE_READ_URL: 'postgres://app@db-replica-1/p',
      }),
    ).toThrow('DATABASE_READ_URL names replicas of a PostgreSQL primary; set DATABASE_URL too')
  })

  it('reads hosted previews: the whole deployment (APP_PREVIEW) or pages of listed origins (PREVIEW_ORIGINS)', () => {
    expect(loadConfig({ AUTH_SECRET: secret, APP_PREVIEW: '1' }).preview).toEqual({
      deployment: true,
      origins: [],
    })
    expect(
      loadConfig({
        AUTH_SECRET: secret,
        PREVIEW_ORIGINS: ' https://pr-1.preview.example.com, http://localhost:5173 ,',
      }).preview,
    ).toEqual({ deployment: false, origins: ['https://pr-1.preview.example.com', 'http://localhost:5173'] })
  })

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ APP_URL: 'localhost:3000' }, 'APP_URL'],
    [{ DATABASE_URL: 'mysql://db/app' }, 'DATABASE_URL must start with postgres://'],
    [{ AUTH_SECRET: 'short' }, 'AUTH_SECRET must be at least 32 characters'],
    [{ SMTP_URL: 'mail.example.com' }, 'SMTP_URL must start with smtp:// or smtps://'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ ADMIN_EMAIL: 'admin' }, 'ADMIN_EMAIL must be an email address'],
    [{ PLANS: 'maybe' }, "PLANS must be 'on' or 'off'"],
    [{ APP_PREVIEW: 'yes' }, "APP_PREVIEW must be '0' or '1'"],
    [
      { PREVIEW_ORIGINS: 'https://ok.example.com,https://bad.example.com/path' },
      "PREVIEW_ORIGINS 'https://bad.example.com/path' is not an origin (scheme://host[:port])",
    ],
    [{ PREVIEW_ORIGINS: 'preview.example.com' }, "PREVIEW_ORIGINS 'preview.example.com' is not an origin"],
    [{ TRUST_PROXY: 'yes' }, 'TRUST_PROXY "yes" is neither a number of hops nor an IP address or CIDR'],
    [{ NODE_ENV: 'production', AUTH_SECRET: '' }, 'AUTH_SECRET is required when NODE_ENV=production'],
    [
      { NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: '1' },
      'WEBHOOK_ALLOW_PRIVATE=1 lets webhooks reach private networks; with NODE_ENV=production it also needs WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION=1',
    ],
    [
      { NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION: 'yes' },
      "WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION must be '0' or '1'",
    ],
  ])('stops the start with one clear line for %j', (env, text) => {
    const load = () => loadConfig({ AUTH_SECRET: secret, ...env })
    expect(load).toThrow(ConfigError)
    expect(load).toThrow(`Invalid configuration: ${text}`)
    expect(() => load()).not.toThrow(/\n/)
  })

  it('takes private webhook targets in production only with the second, explicit flag', () => {
    const production = { AUTH_SECRET: secret, NODE_ENV: 'production' }
    expect(loadConfig(production).webhookAllowPrivate).toBe(false)
    expect(
      loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: '0', WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION: '1' })
        .webhookAllowPrivate,
    ).toBe(false)
    expect(
      loadConfig({ ...production, WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_ALLOW_PRIVATE_IN_PRODUCTION: '1' })
        .webhookAllowPrivate,
    ).toBe(true)
    expect(loadConfig({ AUTH_SECRET: secret, WEBHOOK_ALLOW_PRIVATE: '1' }).webhookAllowPrivate).toBe(true)
  })

  it('generates the auth secret once into DATA_DIR and keeps it across starts', () => {
    const first = loadConfig({ DATA_DIR: dataDir }).authSecret ?? ''
    expect(first.length).toBeGreaterThanOrEqual(32)
    expect(readFileSync(path.join(dataDir, 'auth-secret'), 'utf8').trim()).toBe(first)
    expect(loadConfig({ DATA_DIR: dataDir }).authSecret).toBe(first)
  })

  it('leaves the secret to the database when DATABASE_URL is set, so every process shares it', () => {
    const dir = path.join(dataDir, 'with-postgres')
    expect(loadConfig({ DATA_DIR: dir, DATABASE_URL: 'postgres://db/app' }).authSecret).toBeNull()
    expect(existsSync(path.join(dir, 'auth-secret'))).toBe(false)
  })
})
