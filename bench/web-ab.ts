// `BENCH_AB_BASE=<commit> npm run bench:web-ab`: what a change did to the Largest Contentful Paint
// of a signed-in first visit, measured fairly on a shared machine. LCP on two cores moves by a few
// hundred milliseconds from minute to minute (the browser, the server and PostgreSQL share them), so
// runs of one build after the other's showed gains that an interleaved run did not: here both
// builds serve the web benchmark's database at once and take turns, one visit each per page and
// round (their order swapped every round), in one browser, each visit in a fresh context (cold
// cache). It prints each page's LCP p50 and spread per build and the median of the rounds' ratios.
import { chromium } from '@playwright/test'
import { earlierCheckout } from './lib/checkout.ts'
import { signIn, startServer, stopServer } from './lib/harness.ts'
import { median, table } from './lib/stats.ts'
import { BENCH_PASSWORD, benchEmail } from './prompts/seed.ts'
import { firstVisit, MESSAGE_ITEMS, PROMPT_ROWS, seedWeb, URL } from './web/run.ts'

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 15)

const conversationId = await seedWeb()
const earlier = earlierCheckout(process.env.BENCH_AB_BASE ?? 'HEAD')
const servers = [
  await startServer({ DATABASE_URL: URL }, {}, earlier.dir),
  await startServer({ DATABASE_URL: URL }),
]
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
})
const pages = [
  { name: '/prompts', path: '/prompts', items: PROMPT_ROWS },
  { name: '/conversations/{id}', path: `/conversations/${conversationId}`, items: MESSAGE_ITEMS },
]
const lcps = pages.map(() => servers.map((): number[] => []))
try {
  const cookies = await Promise.all(
    servers.map((server) => signIn(server.base, benchEmail(0), BENCH_PASSWORD)),
  )
  const visit = async (p: number, s: number) => {
    const { page, lcp } = await firstVisit(
      browser,
      servers[s]!.base,
      cookies[s]!,
      pages[p]!.path,
      pages[p]!.items,
    )
    await page.context().close()
    return lcp
  }
  // One unmeasured visit each: the servers' first queries and the OS's file cache.
  for (const p of pages.keys()) for (const s of servers.keys()) await visit(p, s)
  for (let round = 0; round < ROUNDS; round++) {
    for (const p of pages.keys()) {
      for (const s of round % 2 === 0 ? [0, 1] : [1, 0]) lcps[p]![s]!.push(await visit(p, s))
    }
  }
} finally {
  await browser.close()
  for (const server of servers) await stopServer(server)
  earlier.remove()
}
const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  return `${Math.round(sorted[0]!)}-${Math.round(sorted.at(-1)!)}`
}
console.log(
  `\nLCP of a signed-in first visit, ${ROUNDS} rounds: ${earlier.commit} and ${earlier.current}\n\n${table(
    [
      'page',
      `p50 ms ${earlier.commit}`,
      'range',
      'p50 ms now',
      'range',
      'ratio now/before (median of rounds)',
    ],
    pages.map((page, p) => {
      const [before, now] = lcps[p]!
      return [
        page.name,
        String(Math.round(median(before!))),
        spread(before!),
        String(Math.round(median(now!))),
        spread(now!),
        median(now!.map((lcp, i) => lcp / before![i]!)).toFixed(2),
      ]
    }),
  )}\n(below 1 is faster)`,
)
