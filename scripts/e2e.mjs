// Runs the Playwright suite against the built app in the system Chromium.
// Without Chromium: outside CI the suite is skipped with one loud line; under CI=true it fails.
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
// Debian's headless shell (package chromium-headless-shell) when installed: the same engine without
// the full browser's window machinery: the whole suite took 16.0 min against 21.0 with the full
// Chromium on an idle machine of this kind (2026-11-29); else the full Chromium.
const headlessShell = '/usr/bin/chromium-headless-shell'
const chrome = process.env.CHROME_PATH ?? (existsSync(headlessShell) ? headlessShell : '/usr/bin/chromium')
if (!existsSync(chrome)) {
  const line = `E2E SKIPPED: no Chromium at ${chrome}. Install it with 'apt-get install -y chromium' or set CHROME_PATH.`
  if (/^(true|1)$/i.test(process.env.CI ?? '')) {
    console.error(`${line} (CI=${process.env.CI}: failing)`)
    process.exit(1)
  }
  console.warn(`\n!!! ${line}\n`)
  process.exit(0)
}

execFileSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], {
  stdio: 'inherit',
  cwd: root,
})

const freePort = () =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
// The app, and the mail catcher (SMTP + its HTTP API), OpenID provider and fake model server it
// talks to. The second app server runs with plans on (e2e/plans.spec.ts); see playwright.config.ts.
const [port, smtpPort, mailPort, oidcPort, plansPort, modelPort] = [
  await freePort(),
  await freePort(),
  await freePort(),
  await freePort(),
  await freePort(),
  await freePort(),
]
const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-e2e-'))
const result = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules/@playwright/test/cli.js'), 'test', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
    cwd: root,
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_SMTP_PORT: String(smtpPort),
      E2E_MAIL_PORT: String(mailPort),
      E2E_OIDC_PORT: String(oidcPort),
      E2E_PLANS_PORT: String(plansPort),
      E2E_MODEL_PORT: String(modelPort),
      E2E_DATA_DIR: dataDir,
      CHROME_PATH: chrome,
    },
  },
)
rmSync(dataDir, { recursive: true, force: true })
rmSync(`${dataDir}-plans`, { recursive: true, force: true })
process.exit(result.status ?? 1)
