import { type Browser, chromium, type Page } from '@playwright/test'
import pg from 'pg'
import { type ConnectionPlan, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { signIn, startServer, stopServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { percentile, table } from '../lib/stats.ts'
import { BENCH_PASSWORD, benchEmail, seed } from '../prompts/seed.ts'

/** The web benchmark's own database (BENCH_WEB_DATABASE_URL). */
export const WEB_DATABASE_URL =
  process.env.BENCH_WEB_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_web'
const PROMPTS = 1_000
const MESSAGES = 10_000
const CONVERSATION_TITLE = 'Ten thousand messages'
const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5)
/** How many more pages each run loads before it measures interactions on the grown list. */
const MORE_PAGES = Number(process.env.BENCH_WEB_MORE_PAGES ?? 10)

/**
 * One user (the installation's first) with 1,000 prompts, and a conversation of theirs with
 * 10,000 messages. The prompts come from the prompts benchmark's seeder; skipped when present.
 */
export async function seedWeb(): Promise<string> {
  await seed({ users: 1, prompts: PROMPTS, versions: 2 * PROMPTS }, { url: WEB_DATABASE_URL })
  const db = new pg.Client({ connectionString: WEB_DATABASE_URL })
  await db.connect()
  try {
    const found = await db.query('SELECT id FROM conversations WHERE title = $1', [CONVERSATION_TITLE])
    if (found.rows[0]) return found.rows[0].id as string
    const userId = (await db.query('SELECT id FROM users ORDER BY created_at LIMIT 1')).rows[0].id as string
    const id = (
      await db.query(
        `INSERT INTO conversations (title, owner_user_id, tags) VALUES ($1, $2, ARRAY['bench']) RETURNING id`,
        [CONVERSATION_TITLE, userId],
      )
    ).rows[0].id as string
    await db.query(
      `INSERT INTO conversation_messages (conversation_id, created_by_user_id, role, content, created_at, updated_at)
       SELECT $1, $2, CASE WHEN i % 2 = 0 THEN 'assistant' ELSE 'user' END,
              jsonb_build_object('text', 'Message ' || i || ': a question or an answer of a few lines, '
                || 'long enough to wrap once or twice on a laptop screen, as chats usually are.'),
              now() - ($3::int - i) * interval '1 second', now() - ($3::int - i) * interval '1 second'
       FROM generate_series(1, $3::int) i`,
      [id, userId, MESSAGES],
    )
    await db.query('VACUUM ANALYZE')
    return id
  } finally {
    await db.end()
  }
}

/** Collects the page's largest contentful paint and the Event Timing entries of its interactions. */
const observe = () => {
  const w = window as unknown as { __lcp: number; __events: { name: string; duration: number; id: number }[] }
  w.__lcp = 0
  w.__events = []
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__lcp = entry.startTime
  }).observe({ type: 'largest-contentful-paint', buffered: true })
  new PerformanceObserver((list) => {
    // interactionId: Chromium's grouping of an interaction's events (not in TypeScript's DOM types yet).
    for (const entry of list.getEntries() as (PerformanceEntry & { interactionId?: number })[]) {
      if (entry.interactionId)
        w.__events.push({ name: entry.name, duration: entry.duration, id: entry.interactionId })
    }
  }).observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit)
}

/** LCP once the page's content shows: after two more frames, the entry for its paint is in. */
async function lcpOf(page: Page): Promise<number> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(null)))),
  )
  return page.evaluate(() => (window as unknown as { __lcp: number }).__lcp)
}

/**
 * INP as Chromium counts it: per interaction the longest of its events, from input to the next
 * paint; the worst interaction here. Below Event Timing's 16 ms threshold nothing is recorded (0).
 */
async function inpOf(page: Page): Promise<number> {
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)))
  const events = await page.evaluate(
    () => (window as unknown as { __events: { duration: number; id: number }[] }).__events,
  )
  const byInteraction = new Map<number, number>()
  for (const event of events)
    byInteraction.set(event.id, Math.max(byInteraction.get(event.id) ?? 0, event.duration))
  return Math.max(0, ...byInteraction.values())
}

interface Run {
  lcp: number
  /** Interactions on the first page. */
  inp: number
  /** The same interactions after MORE_PAGES more pages have been loaded. */
  inpGrown: number
  items: number
}

/** Debian's Chromium (CHROME_PATH), headless: no benchmark downloads a browser of its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  })
}

/** The measured pages' items, whose first showing is the page's content. */
export const PROMPT_ROWS = 'ul[aria-label="Prompts"] > li'
export const MESSAGE_ITEMS = 'section[aria-label="Messages"] ol > li'

/**
 * A first visit of `path` in a fresh browser context (cold cache) signed in with `cookie`, until
 * the first of `items` shows: the page and its LCP.
 */
export async function firstVisit(
  browser: Browser,
  base: string,
  cookie: string,
  path: string,
  items: string,
): Promise<{ page: Page; lcp: number }> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } })
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const [name = '', ...value] = pair.split('=')
      return { name, value: value.join('='), url: base }
    }),
  )
  await context.addInitScript(observe)
  const page = await context.newPage()
  await page.goto(`${base}${path}`)
  await page.locator(items).first().waitFor()
  return { page, lcp: await lcpOf(page) }
}

/** /prompts: the first page of the list, typing in its search box, then the list grown by "Load more". */
async function promptsRun(browser: Browser, base: string, cookie: string): Promise<Run> {
  const { page, lcp } = await firstVisit(browser, base, cookie, '/prompts', PROMPT_ROWS)
  const rows = page.locator(PROMPT_ROWS)
  const search = page.getByRole('searchbox').first()
  const interact = async () => {
    await search.click()
    await page.keyboard.type('ab')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
  }
  await interact()
  const inp = await inpOf(page)
  await page.evaluate(() => {
    ;(window as unknown as { __events: unknown[] }).__events = []
  })
  for (let i = 0; i < MORE_PAGES; i++) {
    const before = await rows.count()
    const more = page.getByRole('button', { name: 'Load more' })
    if (!(await more.isVisible())) break
    // The list loads its next page by itself when its end comes near the viewport; a click raced
    // with that load, which moved the button away under the pointer.
    await more.scrollIntoViewIfNeeded()
    await page.waitForFunction(([items, count]) => document.querySelectorAll(items).length > count, [
      PROMPT_ROWS,
      before,
    ] as const)
  }
  const items = await rows.count()
  await page.evaluate(() => {
    ;(window as unknown as { __events: unknown[] }).__events = []
  })
  await interact()
  const inpGrown = await inpOf(page)
  await page.context().close()
  return { lcp, inp, inpGrown, items }
}

/** /conversations/{id}: the newest messages, typing in the composer, then after scrolling back. */
async function conversationRun(browser: Browser, base: string, cookie: string, id: string): Promise<Run> {
  const { page, lcp } = await firstVisit(browser, base, cookie, `/conversations/${id}`, MESSAGE_ITEMS)
  const messages = page.locator(MESSAGE_ITEMS)
  const composer = page.getByRole('textbox').last()
  const interact = async () => {
    await composer.click()
    await page.keyboard.type('ab')
    await page.keyboard.press('Backspace')
    await page.keyboard.press('Backspace')
  }
  await interact()
  const inp = await inpOf(page)
  for (let i = 0; i < MORE_PAGES; i++) {
    const before = await messages.count()
    await page.getByRole('region', { name: 'Messages' }).evaluate((element) => {
      element.scrollTop = 0
    })
    await page.waitForFunction(({ items, count }) => document.querySelectorAll(items).length > count, {
      items: MESSAGE_ITEMS,
      count: before,
    })
  }
  const items = await messages.count()
  await page.evaluate(() => {
    ;(window as unknown as { __events: unknown[] }).__events = []
  })
  await interact()
  const inpGrown = await inpOf(page)
  await page.context().close()
  return { lcp, inp, inpGrown, items }
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server (the seed's client is closed before it starts).
 */
export const webConnections: ConnectionPlan = {
  databaseUrl: WEB_DATABASE_URL,
  holds: { 'app server': SERVER_CONNECTIONS },
}

/**
 * The web goals, LCP under 1 s and INP under 100 ms: LCP and INP of /prompts (1,000 prompts)
 * and of a conversation of 10,000 messages, in Chromium on loopback against the built app on PostgreSQL. Each run is a fresh
 * browser context (cold cache); the table shows the median and the worst of BENCH_WEB_RUNS runs.
 */
export async function runWebBenchmark(): Promise<void> {
  const conversationId = await seedWeb()
  const server = await startServer({ DATABASE_URL: WEB_DATABASE_URL })
  const browser = await launchBrowser()
  const runs: Record<string, Run[]> = { '/prompts': [], '/conversations/{id}': [] }
  try {
    const cookie = await signIn(server.base, benchEmail(0), BENCH_PASSWORD)
    // One unmeasured visit each: the server's first queries and the OS's file cache.
    await promptsRun(browser, server.base, cookie)
    await conversationRun(browser, server.base, cookie, conversationId)
    for (let i = 0; i < RUNS; i++) {
      runs['/prompts']!.push(await promptsRun(browser, server.base, cookie))
      runs['/conversations/{id}']!.push(await conversationRun(browser, server.base, cookie, conversationId))
    }
  } finally {
    await browser.close()
    await stopServer(server)
  }
  const ms = (value: number) => value.toFixed(0)
  const rows = Object.entries(runs).map(([page, list]) => {
    const of = (key: 'lcp' | 'inp' | 'inpGrown') => list.map((run) => run[key]).sort((a, b) => a - b)
    return [
      page,
      ms(percentile(of('lcp'), 50)),
      ms(Math.max(...of('lcp'))),
      ms(percentile(of('inp'), 50)),
      ms(Math.max(...of('inp'))),
      String(list[0]?.items ?? 0),
      ms(percentile(of('inpGrown'), 50)),
      ms(Math.max(...of('inpGrown'))),
    ]
  })
  console.log(
    `\n${table(
      [
        'page',
        'LCP p50 ms',
        'LCP max ms',
        'INP p50 ms',
        'INP max ms',
        'rows after',
        'INP p50 ms',
        'INP max ms',
      ],
      rows,
    )}\n(goals: LCP < 1000 ms, INP < 100 ms; INP 0 = every interaction under Event Timing's 16 ms;` +
      ` "rows after": the list after ${MORE_PAGES} more pages, and INP measured there)\n`,
  )
  saveResults('web', { runs, morePages: MORE_PAGES })
}
