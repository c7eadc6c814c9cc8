// `npm run docs:screenshots`: the screenshots of README.md and docs/ (docs/images/), taken from the
// real app so that they follow the UI. One account in English with the light theme and one in
// German with the dark theme, each with a few prompts, a second version and an API key, on a fresh
// embedded database; system Chromium (/usr/bin/chromium or CHROME_PATH), headless.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type BrowserContext, chromium, type Page } from '@playwright/test'
import { startServerProcess } from '../src/server/testing/server-process.ts'

const root = path.resolve(import.meta.dirname, '..')
const images = path.join(root, 'docs/images')
const PASSWORD = 'docs screenshots password 1'

interface Account {
  file: string
  locale: string
  colorScheme: 'light' | 'dark'
  email: string
  prompts: { title: string; description: string; body: string; tags: string[]; changed: string }[]
  /** The screens this account is photographed on: only those the README and guides show. */
  shots: ('prompts' | 'prompt' | 'api-keys')[]
}

const accounts: Account[] = [
  {
    file: 'en-light',
    locale: 'en-US',
    colorScheme: 'light',
    email: 'ada@example.com',
    shots: ['prompts', 'prompt'],
    prompts: [
      {
        title: 'Support triage',
        description: 'Sorts an incoming ticket into a queue with a priority.',
        body: 'You triage support tickets for {{product}}.\nTicket: {{ticket}}\nAnswer with the queue and a priority from 1 to 4.',
        tags: ['support', 'triage'],
        changed:
          'You triage support tickets for {{product}}.\nTicket: {{ticket}}\nAnswer with the queue, a priority from 1 to 4 and one sentence why.',
      },
      {
        title: 'Meeting summary',
        description: 'Five bullet points and the decisions taken.',
        body: 'Summarize this meeting in five bullet points, then list every decision:\n{{transcript}}',
        tags: ['writing'],
        changed: '',
      },
      {
        title: 'Release notes',
        description: 'Turns merged changes into notes for users.',
        body: 'Write release notes for {{version}} from these changes, grouped by Added, Changed and Fixed:\n{{changes}}',
        tags: ['writing', 'engineering'],
        changed: '',
      },
    ],
  },
  {
    file: 'de-dark',
    locale: 'de-DE',
    colorScheme: 'dark',
    email: 'grete@example.com',
    shots: ['prompt', 'api-keys'],
    prompts: [
      {
        title: 'Support-Triage',
        description: 'Ordnet ein Ticket einer Warteschlange mit Priorität zu.',
        body: 'Du sortierst Support-Tickets für {{produkt}}.\nTicket: {{ticket}}\nAntworte mit Warteschlange und Priorität von 1 bis 4.',
        tags: ['support', 'triage'],
        changed:
          'Du sortierst Support-Tickets für {{produkt}}.\nTicket: {{ticket}}\nAntworte mit Warteschlange, Priorität von 1 bis 4 und einem Satz Begründung.',
      },
      {
        title: 'Besprechungsprotokoll',
        description: 'Fünf Stichpunkte und die Beschlüsse.',
        body: 'Fasse diese Besprechung in fünf Stichpunkten zusammen und nenne jeden Beschluss:\n{{mitschrift}}',
        tags: ['schreiben'],
        changed: '',
      },
    ],
  },
]

async function api(
  context: BrowserContext,
  base: string,
  method: 'get' | 'post' | 'patch',
  url: string,
  data: unknown,
  language: string,
) {
  const res = await context.request[method](`${base}${url}`, {
    data,
    headers: { Origin: base, 'Accept-Language': language },
  })
  if (!res.ok()) throw new Error(`${method.toUpperCase()} ${url}: ${res.status()} ${await res.text()}`)
  return (await res.json()) as Record<string, unknown>
}

/** Waits for the page to show `text` and to settle, then keeps it as docs/images/<name>.png. */
async function shoot(page: Page, url: string, text: string, name: string) {
  await page.goto(url)
  await page.getByText(text, { exact: false }).first().waitFor()
  await page.waitForLoadState('networkidle')
  const file = path.join(images, `${name}.png`)
  await page.screenshot({ path: file })
  console.log(`${path.relative(root, file)}  ${Math.round(statSync(file).size / 1024)} KiB`)
}

execFileSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], {
  stdio: 'inherit',
  cwd: root,
})
/** Port 3000 when it is free, so that the snippets on screen show the address `npm start` serves on. */
async function preferredPort(): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = createServer()
    probe.once('error', () => resolve(undefined))
    probe.listen(3000, '127.0.0.1', () => probe.close(() => resolve(3000)))
  })
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-screenshots-'))
const port = await preferredPort()
const server = await startServerProcess(
  {
    DATA_DIR: dataDir,
    PLANS: 'off',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    RATE_LIMIT_MULTIPLIER: '100',
  },
  { port },
)
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
try {
  for (const account of accounts) {
    const context = await browser.newContext({
      locale: account.locale,
      colorScheme: account.colorScheme,
      viewport: { width: 1280, height: 800 },
    })
    const base = server.base
    const call = (method: 'get' | 'post' | 'patch', url: string, data: unknown) =>
      api(context, base, method, url, data, account.locale)
    await call('post', '/api/v1/auth/sign-up', {
      email: account.email,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      acceptTerms: true,
    })
    const ids: string[] = []
    for (const prompt of account.prompts) {
      const created = await call('post', '/api/v1/prompts', {
        title: prompt.title,
        description: prompt.description,
        body: prompt.body,
        tags: prompt.tags,
      })
      ids.push(created.id as string)
      if (prompt.changed) await call('patch', `/api/v1/prompts/${created.id}`, { body: prompt.changed })
    }
    const key = await call('post', '/api/v1/api-keys', { name: 'production', scope: 'read' })
    // The README's first five minutes fetch a prompt with the key, as curl -u does: check it works.
    const name = (await call('get', `/api/v1/prompts/${ids[0]}`, undefined)).name as string
    const basic = Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')
    const fetched = await fetch(`${base}/api/public/v2/prompts/${encodeURIComponent(name)}`, {
      headers: { Authorization: `Basic ${basic}` },
    })
    if (fetched.status !== 200) throw new Error(`the Langfuse fetch of ${name} answered ${fetched.status}`)
    const page = await context.newPage()
    const first = account.prompts[0]!
    const screens = {
      prompts: { url: '/prompts', text: account.prompts.at(-1)!.title },
      prompt: { url: `/prompts/${ids[0]}`, text: first.title },
      'api-keys': { url: '/settings/api', text: 'production' },
    }
    for (const shot of account.shots) {
      await shoot(page, `${base}${screens[shot].url}`, screens[shot].text, `${shot}-${account.file}`)
    }
    await context.close()
  }
} finally {
  await browser.close()
  await server.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
