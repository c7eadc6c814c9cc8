// `npm run soak`: SOAK_SECONDS (600) of a realistic mixed load on loopback, bounded in rate
// (SOAK_RATE requests per second in all, from SOAK_USERS signed-in users), against the built server
// on PostgreSQL (SOAK_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/promptfolio_bench_soak,
// dropped and re-created) or, with SOAK_DATABASE=pglite, on the embedded database in a temporary
// DATA_DIR. Every answer must be a 2xx. The server's RSS is sampled every 10 s with the window's
// latencies; the figures go to bench/.results/soak-<time>.json and the curves to a .svg beside it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as wait } from 'node:timers/promises'
import { DEFAULT_PASSWORD, httpTarget, TestClient } from '../../src/server/testing/client.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import { residentMegabytes, startServer, stopServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { percentile } from '../lib/stats.ts'
import { type SoakWindow, soakSvg, summarizeSoak } from './report.ts'

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600)
const RATE = Number(process.env.SOAK_RATE ?? 40)
const USERS = Number(process.env.SOAK_USERS ?? 8)
const WINDOW_SECONDS = 10
const WARMUP_SECONDS = Number(process.env.SOAK_WARMUP_SECONDS ?? Math.min(120, Math.round(SECONDS / 5)))
const EMBEDDED = process.env.SOAK_DATABASE === 'pglite'
const URL = process.env.SOAK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_soak'

interface User {
  client: TestClient
  email: string
  prompts: string[]
  conversations: string[]
  saves: number
}

/** What a user does, with its weight: mostly reads, then saves and messages, some sign-ins. */
const actions: { name: string; weight: number; run: (user: User, base: string) => Promise<number[]> }[] = [
  { name: 'list prompts', weight: 15, run: (u) => statuses(u.client.get('/api/v1/prompts?limit=20')) },
  {
    name: 'read prompt',
    weight: 15,
    run: (u) => statuses(u.client.get(`/api/v1/prompts/${pick(u.prompts)}`)),
  },
  {
    name: 'list versions',
    weight: 5,
    run: (u) => statuses(u.client.get(`/api/v1/prompts/${pick(u.prompts)}/versions`)),
  },
  { name: 'dashboard', weight: 5, run: (u) => statuses(u.client.get('/api/v1/dashboard')) },
  {
    name: 'read messages',
    weight: 10,
    run: (u) => statuses(u.client.get(`/api/v1/conversations/${pick(u.conversations)}/messages?limit=50`)),
  },
  {
    name: 'read conversation',
    weight: 5,
    run: (u) => statuses(u.client.get(`/api/v1/conversations/${pick(u.conversations)}`)),
  },
  {
    name: 'save version',
    weight: 15,
    run: (u) => {
      u.saves += 1
      return statuses(
        u.client.patch(`/api/v1/prompts/${pick(u.prompts)}`, {
          body: `You are a careful assistant. Revision ${u.saves} of ${u.email}: answer in {{tone}} terms.`,
          changelog: `soak save ${u.saves}`,
        }),
      )
    },
  },
  {
    name: 'create prompt',
    weight: 2,
    run: async (u) => {
      const res = await u.client.post<{ id: string }>('/api/v1/prompts', {
        title: `Soak prompt ${u.prompts.length + 1}`,
        body: 'Summarize the text below in three bullet points.',
        tags: ['soak'],
      })
      if (res.status === 201) u.prompts.push(res.body.id)
      return [res.status]
    },
  },
  {
    name: 'append message',
    weight: 20,
    run: (u) =>
      statuses(
        u.client.post(`/api/v1/conversations/${pick(u.conversations)}/messages`, {
          content: { text: `Message at ${new Date().toISOString()}: how would you phrase this better?` },
        }),
      ),
  },
  {
    name: 'sign in and out',
    weight: 5,
    run: async (u, base) => {
      const session = new TestClient(httpTarget(base), { origin: base })
      const signIn = await session.signIn(u.email)
      const signOut = await session.post('/api/auth/sign-out')
      return [signIn.status, signOut.status]
    },
  },
  { name: 'me', weight: 3, run: (u) => statuses(u.client.get('/api/v1/me')) },
]
const totalWeight = actions.reduce((sum, a) => sum + a.weight, 0)

async function statuses(response: Promise<{ status: number }>): Promise<number[]> {
  return [(await response).status]
}

function pick<T>(list: T[]): T {
  return list[Math.floor(Math.random() * list.length)]!
}

function pickAction(): (typeof actions)[number] {
  let roll = Math.random() * totalWeight
  for (const action of actions) {
    roll -= action.weight
    if (roll < 0) return action
  }
  return actions[0]!
}

async function setUpUser(base: string, index: number): Promise<User> {
  const email = `soak${index}@example.com`
  const client = new TestClient(httpTarget(base), { origin: base })
  await client.signUp(email, DEFAULT_PASSWORD)
  const user: User = { client, email, prompts: [], conversations: [], saves: 0 }
  for (let n = 1; n <= 3; n++) {
    const res = await client.post<{ id: string }>('/api/v1/prompts', {
      title: `Prompt ${n}`,
      body: 'Hello {{name}}',
    })
    if (res.status !== 201)
      throw new Error(`creating a prompt failed: ${res.status} ${JSON.stringify(res.body)}`)
    user.prompts.push(res.body.id)
  }
  for (let n = 1; n <= 2; n++) {
    const res = await client.post<{ id: string }>('/api/v1/conversations', { title: `Chat ${n}` })
    if (res.status !== 201) throw new Error(`creating a conversation failed: ${res.status}`)
    user.conversations.push(res.body.id)
  }
  return user
}

export async function runSoak(): Promise<void> {
  const dataDir = EMBEDDED ? mkdtempSync(path.join(tmpdir(), 'pf-soak-')) : undefined
  if (!dataDir) await ensureBenchDatabase(true, URL)
  // An unlimited installation: a trial's prompt limit would refuse the creates after a while.
  const server = await startServer(dataDir ? { DATA_DIR: dataDir } : { DATABASE_URL: URL }, { PLANS: 'off' })
  const base = server.base
  console.log(
    `soak: ${SECONDS} s at ${RATE} req/s from ${USERS} users on ${EMBEDDED ? 'PGlite' : 'PostgreSQL'} ` +
      `(warm-up ${WARMUP_SECONDS} s, RSS every ${WINDOW_SECONDS} s)`,
  )
  const windows: SoakWindow[] = []
  const errorSamples: string[] = []
  try {
    const users = await Promise.all(Array.from({ length: USERS }, (_, i) => setUpUser(base, i + 1)))
    const started = performance.now()
    const end = started + SECONDS * 1000
    let latencies: number[] = []
    let errors = 0
    const perAction = new Map<string, { count: number; errors: number }>()

    // Each user is a paced loop: one action every USERS / RATE seconds (later when an answer is slow).
    const interval = (USERS / RATE) * 1000
    const loops = users.map(async (user, i) => {
      await wait((interval / USERS) * i)
      while (performance.now() < end) {
        const at = performance.now()
        const action = pickAction()
        const tally = perAction.get(action.name) ?? { count: 0, errors: 0 }
        perAction.set(action.name, tally)
        try {
          const codes = await action.run(user, base)
          const failed = codes.filter((code) => code < 200 || code >= 300)
          if (failed.length > 0) {
            errors += failed.length
            tally.errors += failed.length
            if (errorSamples.length < 10) errorSamples.push(`${action.name}: ${failed.join(', ')}`)
          }
        } catch (error) {
          errors += 1
          tally.errors += 1
          if (errorSamples.length < 10) errorSamples.push(`${action.name}: ${(error as Error).message}`)
        }
        tally.count += 1
        latencies.push(performance.now() - at)
        await wait(Math.max(0, at + interval - performance.now()))
      }
    })

    const sampler = (async () => {
      for (let n = 1; n * WINDOW_SECONDS <= SECONDS; n++) {
        await wait(Math.max(0, started + n * WINDOW_SECONDS * 1000 - performance.now()))
        const sorted = latencies.sort((a, b) => a - b)
        const window: SoakWindow = {
          second: n * WINDOW_SECONDS,
          rssMb: Math.round(residentMegabytes(server) * 10) / 10,
          requests: sorted.length,
          errors,
          p50: Math.round(percentile(sorted, 50) * 10) / 10,
          p99: Math.round(percentile(sorted, 99) * 10) / 10,
        }
        windows.push(window)
        latencies = []
        errors = 0
        console.log(
          `  ${String(window.second).padStart(4)} s  RSS ${window.rssMb.toFixed(0).padStart(4)} MB  ` +
            `${(window.requests / WINDOW_SECONDS).toFixed(1).padStart(5)} req/s  p50 ${window.p50} ms  ` +
            `p99 ${window.p99} ms  errors ${window.errors}`,
        )
      }
    })()
    await Promise.all([...loops, sampler])

    const summary = summarizeSoak(windows, WARMUP_SECONDS)
    const file = saveResults('soak', {
      database: EMBEDDED ? 'pglite' : 'postgres',
      seconds: SECONDS,
      rate: RATE,
      users: USERS,
      warmupSeconds: WARMUP_SECONDS,
      summary,
      actions: Object.fromEntries(perAction),
      errorSamples,
      windows,
    })
    const svg = file.replace(/\.json$/, '.svg')
    writeFileSync(
      svg,
      soakSvg(windows, WARMUP_SECONDS, `${EMBEDDED ? 'PGlite' : 'PostgreSQL'}, target ${RATE} req/s`),
    )
    console.log(
      `\nrequests ${summary.requests}, errors ${summary.errors}; ` +
        `RSS after warm-up, low-high: first half ${summary.rssFirstHalf.min}-${summary.rssFirstHalf.max} MB, ` +
        `second half ${summary.rssSecondHalf.min}-${summary.rssSecondHalf.max} MB (slope ${summary.rssSlopeMbPerMinute} MB/min): ` +
        `${summary.rssFlat ? 'FLAT' : 'GROWING'} after warm-up; ` +
        `p99 per window after warm-up: median ${summary.p99MedianMs} ms, worst ${summary.p99WorstMs} ms`,
    )
    for (const sample of errorSamples) console.log(`  error: ${sample}`)
    console.log(
      `figures: ${path.relative(process.cwd(), file)}\nplot:    ${path.relative(process.cwd(), svg)}`,
    )
    if (summary.errors > 0 || !summary.rssFlat) process.exitCode = 1
  } finally {
    await stopServer(server)
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  }
}

await runSoak()
