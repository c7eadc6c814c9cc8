import { defineConfig, devices } from '@playwright/test'
import { startFlags } from './scripts/start-flags.mjs'

// scripts/e2e.mjs chooses a free port and a fresh data folder, builds the web app and then runs
// Playwright; the server under test is the real one, on its embedded database.
const port = Number(process.env.E2E_PORT ?? 3100)
const baseURL = `http://localhost:${port}`
// The mail catcher (e2e/mailbox.ts reads it) and the local OpenID provider standing in for Google.
const smtpPort = Number(process.env.E2E_SMTP_PORT ?? 3125)
const mailPort = Number(process.env.E2E_MAIL_PORT ?? 3126)
const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 3127)
// The fake model server (e2e/models-support.ts reads its port), standing in for OpenAI and Anthropic.
const modelPort = Number(process.env.E2E_MODEL_PORT ?? 3129)
process.env.E2E_MAIL_PORT = String(mailPort)
process.env.E2E_MODEL_PORT = String(modelPort)
const OIDC_ISSUER = `http://127.0.0.1:${oidcPort}`
// A second app server with plans on (PLANS=on, the product's default) for e2e/plans.spec.ts; the
// main one runs PLANS=off so that suites creating many prompts per user meet no trial limits. The
// second one is also a hosted preview deployment (APP_PREVIEW=1), for e2e/hosted-preview.spec.ts:
// one more server for that alone would cost every run its start-up.
const plansPort = Number(process.env.E2E_PLANS_PORT ?? 3128)
const plansBaseURL = `http://localhost:${plansPort}`
const dataDir = process.env.E2E_DATA_DIR ?? '.tmp/e2e-data'

/** The app as `npm start` runs it (scripts/e2e.mjs builds it first). */
function appServer(port: number, url: string, env: Record<string, string>) {
  return {
    command: ['node', ...startFlags(), 'dist/server/main.mjs'].join(' '),
    url: `${url}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      APP_URL: url,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MULTIPLIER: '100',
      NODE_ENV: 'test',
      AUTH_SECRET: 'e2e-secret-e2e-secret-e2e-secret-e2e-secret',
      SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      MAIL_FROM: 'Promptfolio <no-reply@e2e.test>',
      GOOGLE_CLIENT_ID: 'promptfolio-test-client',
      GOOGLE_CLIENT_SECRET: 'promptfolio-test-secret-0123456789',
      GOOGLE_ISSUER: OIDC_ISSUER,
      ...env,
    },
  }
}

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  // Three on this 2-core machine: with two, a quiet machine stood idle for 17% of the run (a test's
  // browser often waits on the server, a timer or an animation). Whole suite, CI=true, quiet machine,
  // two pairs run back to back (2026-11-30): 361 -> 291 s and 349 -> 344 s, the CPU busy 83% -> 92-93%;
  // the longest test 23 -> 28-33 s, far from its timeout. Under other load (an earlier pair) three
  // gained only 6-8%, and each test took up to twice as long.
  workers: Number(process.env.E2E_WORKERS ?? 3),
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  forbidOnly: !!process.env.CI,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL,
    // A failed test keeps its trace's DOM snapshots, network and console, but not the screencast:
    // encoding every frame cost a fifth of the suite's time (accessibility.spec.ts, 8 tests, idle
    // machine, 2026-11-29: 3.4–3.5 min with it, 2.8 without, 2.5 with no trace at all). The
    // screenshot of the failed page is still taken (below).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: /(plans|hosted-preview)\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], channel: undefined },
    },
    {
      name: 'plans',
      testMatch: /(plans|hosted-preview)\.spec\.ts$/,
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: plansBaseURL },
    },
  ],
  webServer: [
    {
      command: 'node --import tsx e2e/servers/mail-catcher.ts',
      url: `http://127.0.0.1:${mailPort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_SMTP_PORT: String(smtpPort), E2E_MAIL_PORT: String(mailPort) },
    },
    {
      command: 'node --import tsx e2e/servers/openid-provider.ts',
      url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'ignore',
      env: { E2E_OIDC_PORT: String(oidcPort), E2E_APP_URLS: `${baseURL},${plansBaseURL}` },
    },
    {
      command: 'node --import tsx e2e/servers/model-server.ts',
      url: `http://127.0.0.1:${modelPort}/health`,
      reuseExistingServer: false,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: { E2E_MODEL_PORT: String(modelPort) },
    },
    // WEBHOOK_ALLOW_PRIVATE: e2e/webhooks.spec.ts receives the app's webhooks on 127.0.0.1;
    // MODELS_ALLOW_PRIVATE: e2e/models.spec.ts runs prompts against the fake model server there.
    appServer(port, baseURL, {
      DATA_DIR: dataDir,
      PLANS: 'off',
      WEBHOOK_ALLOW_PRIVATE: '1',
      MODELS_ALLOW_PRIVATE: '1',
    }),
    appServer(plansPort, plansBaseURL, { DATA_DIR: `${dataDir}-plans`, PLANS: 'on', APP_PREVIEW: '1' }),
  ],
})
