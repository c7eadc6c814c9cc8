// `npm run bench:plans`: what the plan gate costs a prompt create. Two in-process apps on
// one PostgreSQL database (a schema of its own in BENCH_PLANS_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/promptfolio_bench_plans, created if missing, dropped after),
// one with PLANS=on and one with PLANS=off. Each signs up BENCH_PLANS_USERS users (on Pro, so no
// create is refused) that create BENCH_PLANS_CREATES prompts each, one after another, alternating
// between the apps so that both see the same database state. It prints p50 and p99 of both and the
// difference. In process (Hono's app.request): the HTTP stack is the same, the network is not.
import { type ConnectionPlan, TEST_APP_CONNECTIONS } from '../lib/connections.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import { saveResults } from '../lib/results.ts'
import { percentile, table } from '../lib/stats.ts'

const URL_ =
  process.env.BENCH_PLANS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_plans'
const USERS = Number(process.env.BENCH_PLANS_USERS ?? 5)
const CREATES = Number(process.env.BENCH_PLANS_CREATES ?? 200)

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). Two in-process test apps.
 */
export const plansConnections: ConnectionPlan = {
  databaseUrl: URL_,
  holds: { 'in-process test apps': 2 * TEST_APP_CONNECTIONS },
}

export async function runPlansBenchmark(): Promise<void> {
  await ensureBenchDatabase(false, URL_)
  process.env.TEST_DB = 'postgres'
  process.env.TEST_DATABASE_URL = URL_
  const { createTestApp } = await import('../../src/server/testing/test-app.ts')
  const { TestClient } = await import('../../src/server/testing/client.ts')
  const on = await createTestApp({ plansEnabled: true, rateLimitMultiplier: 1e6 })
  const off = await createTestApp({ plansEnabled: false, rateLimitMultiplier: 1e6 })
  try {
    const latencies = { on: [] as number[], off: [] as number[] }
    const admin = new TestClient(on)
    await admin.signUp()
    const pairs = []
    for (let u = 0; u < USERS; u++) {
      const withGate = new TestClient(on)
      await withGate.signUp()
      const granted = await admin.put('/api/v1/admin/plans', {
        context: 'personal',
        subjectId: withGate.user!.id,
        plan: 'pro',
      })
      if (granted.status !== 200) throw new Error(`grant failed: ${granted.status}`)
      const withoutGate = new TestClient(off)
      await withoutGate.signUp()
      pairs.push({ on: withGate, off: withoutGate })
    }
    const create = async (client: InstanceType<typeof TestClient>, into: number[], i: number) => {
      const start = performance.now()
      const res = await client.post('/api/v1/prompts', { title: `Bench ${i}`, body: 'Say hello to {name}.' })
      into.push(performance.now() - start)
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`)
    }
    // Warm-up, not measured.
    for (const pair of pairs) {
      await create(pair.on, [], -1)
      await create(pair.off, [], -1)
    }
    for (let i = 0; i < CREATES; i++) {
      for (const pair of pairs) {
        await create(pair.on, latencies.on, i)
        await create(pair.off, latencies.off, i)
      }
    }
    const stats = (sample: number[]) => {
      const sorted = [...sample].sort((a, b) => a - b)
      return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) }
    }
    const result = { with: stats(latencies.on), without: stats(latencies.off) }
    const ms = (value: number) => `${value.toFixed(2)} ms`
    console.log(`\nPrompt create, ${USERS} users × ${CREATES} creates each, sequential, PostgreSQL\n`)
    console.log(
      table(
        ['', 'n', 'p50', 'p99'],
        [
          ['with the plan gate (PLANS=on)', String(result.with.n), ms(result.with.p50), ms(result.with.p99)],
          ['without (PLANS=off)', String(result.without.n), ms(result.without.p50), ms(result.without.p99)],
          [
            'gate cost',
            '',
            ms(result.with.p50 - result.without.p50),
            ms(result.with.p99 - result.without.p99),
          ],
        ],
      ),
    )
    console.log(`\nfigures kept in ${saveResults('plans', { users: USERS, creates: CREATES, ...result })}`)
  } finally {
    await on.close()
    await off.close()
  }
}
