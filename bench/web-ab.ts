// `BENCH_AB_BASE=<commit> npm run bench:web-ab`: what a change did to the Largest Contentful Paint
// of a signed-in first visit, measured fairly on a shared machine. LCP on two cores moves by a few
// hundred milliseconds from minute to minute (the browser, the server and PostgreSQL share them), so
// runs of one build after the other's showed gains that an interleaved run did not: here both
// builds serve the web benchmark's database at once and take turns, one visit each per page and
// round (their order swapped every round), in one browser, each visit in a fresh context (cold
// cache). It prints each page's LCP p50 and spread per build, and the median and range of the
// rounds' ratios.
import type { Browser } from '@playwright/test'
import { earlierCheckout } from './lib/checkout.ts'
import {
  APPLICATION_NAME,
  ownConnectionsClosed,
  reserveConnections,
  SERVER_CONNECTIONS,
} from './lib/connections.ts'
import { type BenchServer, signIn, startServer } from './lib/harness.ts'
import { stopTrackedProcesses } from './lib/processes.ts'
import { median, table } from './lib/stats.ts'
import { BENCH_PASSWORD, benchEmail } from './prompts/seed.ts'
import {
  firstVisit,
  launchBrowser,
  MESSAGE_ITEMS,
  PROMPT_ROWS,
  seedWeb,
  WEB_DATABASE_URL,
} from './web/run.ts'

const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 15)
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('BENCH_AB_ROUNDS must be a whole number from 1')
process.env.PGAPPNAME = APPLICATION_NAME

const earlier = earlierCheckout(process.env.BENCH_AB_BASE ?? 'HEAD')
let browser: Browser | undefined
try {
  await reserveConnections('web-ab', {
    databaseUrl: WEB_DATABASE_URL,
    holds: { 'two app servers': 2 * SERVER_CONNECTIONS },
  })
  const conversationId = await seedWeb()
  const servers: BenchServer[] = [
    await startServer({ DATABASE_URL: WEB_DATABASE_URL }, {}, earlier.dir),
    await startServer({ DATABASE_URL: WEB_DATABASE_URL }),
  ]
  const pages = [
    { name: '/prompts', path: '/prompts', items: PROMPT_ROWS },
    { name: '/conversations/{id}', path: `/conversations/${conversationId}`, items: MESSAGE_ITEMS },
  ]
  const cookies = await Promise.all(
    servers.map((server) => signIn(server.base, benchEmail(0), BENCH_PASSWORD)),
  )
  const opened = await launchBrowser()
  browser = opened
  const visit = async (p: number, s: number) => {
    const { page, lcp } = await firstVisit(
      opened,
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
  const lcps = pages.map(() => servers.map((): number[] => []))
  for (let round = 0; round < ROUNDS; round++) {
    for (const p of pages.keys()) {
      for (const s of round % 2 === 0 ? [0, 1] : [1, 0]) lcps[p]![s]!.push(await visit(p, s))
    }
  }
  const range = (values: number[], digits: number) => {
    const sorted = [...values].sort((a, b) => a - b)
    return `${sorted[0]!.toFixed(digits)}-${sorted.at(-1)!.toFixed(digits)}`
  }
  console.log(
    `\nLCP of a signed-in first visit, ${ROUNDS} rounds: ${earlier.commit} and ${earlier.current}\n\n${table(
      ['page', `p50 ms ${earlier.commit}`, 'range', 'p50 ms now', 'range', 'ratio now/before (range)'],
      pages.map((page, p) => {
        const [before, now] = lcps[p]!
        const ratios = now!.map((lcp, i) => lcp / before![i]!)
        return [
          page.name,
          median(before!).toFixed(0),
          range(before!, 0),
          median(now!).toFixed(0),
          range(now!, 0),
          `${median(ratios).toFixed(2)} (${range(ratios, 2)})`,
        ]
      }),
    )}\n(ratios below 1 are faster; an A/A run, BENCH_AB_BASE=HEAD with no change, shows the noise)`,
  )
} finally {
  await browser?.close()
  await stopTrackedProcesses()
  await ownConnectionsClosed('web-ab', WEB_DATABASE_URL).catch((error: Error) => console.warn(error.message))
  earlier.remove()
}
