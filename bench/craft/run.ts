import { readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import pg from 'pg'
import { loadConfig } from '../../src/server/config.ts'
import { type ConnectionPlan, RECORDER_CONNECTIONS, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { BENCH_AUTH_SECRET, databaseName } from '../lib/database.ts'
import {
  CONNECTIONS,
  cpuMilliseconds,
  indexesUsed,
  measureScenario,
  RESULT_COLUMNS,
  resultCells,
  SECONDS,
  signIn,
  startServer,
  stopServer,
} from '../lib/harness.ts'
import { postgresCpuSince } from '../lib/postgres-cpu.ts'
import type { Statement } from '../lib/replay.ts'
import { saveResults } from '../lib/results.ts'
import { sqlRecorder } from '../lib/sql-capture.ts'
import { table } from '../lib/stats.ts'
import {
  CRAFT_DATABASE_URL,
  CRAFT_PASSWORD,
  craftEmails,
  craftSize,
  MEDIUM_WORD,
  RARE_WORD,
  seedCraft,
} from './seed.ts'

/**
 * `npm run bench:craft`: body search over 1M versions — through the API and its exact
 * SQL replayed straight to PostgreSQL — and export then import of 10k prompts, in seconds and the
 * server process's peak memory (VmHWM, reset before each step through /proc/<pid>/clear_refs).
 */
const megabytes = (kb: number) => `${(kb / 1024).toFixed(0)} MB`

function memoryOf(pid: number): { rssKb: number; peakKb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rssKb: field('VmRSS'), peakKb: field('VmHWM') }
}

/**
 * Runs `step` and answers its seconds, the server's peak resident memory meanwhile and the CPU
 * seconds it took of the server process and of PostgreSQL for the benchmark's database (its
 * backends and the server's shared processes, `postgresCpuSince`: another database's work
 * meanwhile is left out, the checkpointer's and walwriter's for it are not).
 */
async function measured<T>(pid: number, step: () => Promise<T>) {
  writeFileSync(`/proc/${pid}/clear_refs`, '5') // resets VmHWM to the current RSS
  const before = memoryOf(pid).rssKb
  const cpuBefore = cpuMilliseconds(pid)
  const postgresSince = postgresCpuSince([databaseName(CRAFT_DATABASE_URL)])
  const started = performance.now()
  const result = await step()
  const seconds = (performance.now() - started) / 1000
  return {
    result,
    seconds,
    serverCpuSeconds: (cpuMilliseconds(pid) - cpuBefore) / 1000,
    postgresCpuSeconds: postgresSince() / 1000,
    rssBeforeKb: before,
    peakKb: memoryOf(pid).peakKb,
  }
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server, the SQL recorder and, while a search is measured,
 * its SQL replay.
 */
export const craftConnections: ConnectionPlan = {
  databaseUrl: CRAFT_DATABASE_URL,
  holds: {
    'app server': SERVER_CONNECTIONS,
    'SQL recorder': RECORDER_CONNECTIONS,
    'SQL replay': CONNECTIONS,
  },
}

export async function runCraftBenchmark(): Promise<void> {
  const users = await seedCraft()
  process.env.PLANS = 'off' // 10k prompts in one space is beyond every plan; the server inherits this
  const server = await startServer({ DATABASE_URL: CRAFT_DATABASE_URL })
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_URL: server.base,
    DATABASE_URL: CRAFT_DATABASE_URL,
    AUTH_SECRET: BENCH_AUTH_SECRET,
    LOG_LEVEL: 'silent',
    PLANS: 'off',
  })
  const recorder = await sqlRecorder(config, CRAFT_DATABASE_URL)
  const pid = server.process.pid!
  try {
    // Export of the exporter's space, then import of that file into the importer's empty space.
    const pool = new pg.Client({ connectionString: CRAFT_DATABASE_URL })
    await pool.connect()
    await pool.query('DELETE FROM prompts WHERE owner_user_id = $1', [users.importer])
    // The last run's import leaves its rows dead; with autovacuum off or behind, every later run
    // would write beside them and scan them.
    await pool.query('VACUUM ANALYZE prompts, prompt_versions, prompt_labels, prompt_label_events')
    await pool.end()
    const exporter = await signIn(server.base, craftEmails.exporter, CRAFT_PASSWORD)
    const exported = await measured(pid, async () => {
      const res = await fetch(`${server.base}/api/v1/prompts/export`, { headers: { cookie: exporter } })
      if (res.status !== 200) throw new Error(`export: ${res.status}`)
      return res.text()
    })
    const importer = await signIn(server.base, craftEmails.importer, CRAFT_PASSWORD)
    // With progress lines, as the app asks: the answer starts at once, so no client timeout hits.
    const importOnce = (dryRun: boolean) =>
      measured(pid, async () => {
        const res = await fetch(`${server.base}/api/v1/prompts/import`, {
          method: 'POST',
          headers: {
            cookie: importer,
            'Content-Type': 'application/json',
            Accept: 'application/x-ndjson',
            Origin: server.base,
          },
          body: `{"teamId":null,"dryRun":${dryRun},"document":${exported.result}}`,
        })
        const last = JSON.parse((await res.text()).trim().split('\n').at(-1)!)
        if (res.status !== 200 || !last.result)
          throw new Error(`import: ${res.status} ${JSON.stringify(last)}`)
        return last.result as { created: number; unchanged: number }
      })
    const dry = await importOnce(true)
    const imported = await importOnce(false)
    const transfer = [
      ['export (JSON)', exported, `${(exported.result.length / 1024 / 1024).toFixed(1)} MB file`],
      ['import, dry run', dry, `${dry.result.created} would be created`],
      ['import', imported, `${imported.result.created} created`],
    ] as const
    console.log(
      `\n${craftSize.transferPrompts} prompts × 3 versions (10% with a reference), load average ${os
        .loadavg()
        .map((value) => value.toFixed(2))
        .join(' ')}:\n\n${table(
        [
          'step',
          'seconds',
          'server CPU s',
          'PostgreSQL CPU s',
          'server RSS before',
          'server peak RSS',
          'result',
        ],
        transfer.map(([step, m, note]) => [
          step,
          m.seconds.toFixed(2),
          m.serverCpuSeconds.toFixed(2),
          m.postgresCpuSeconds.toFixed(2),
          megabytes(m.rssBeforeKb),
          megabytes(m.peakKb),
          note,
        ]),
      )}\n`,
    )
    // Transfer figures alone, e.g. for runs one after the other of two builds: nothing is saved.
    if (process.env.BENCH_CRAFT_TRANSFER_ONLY === '1') return
    const total = craftSize.searchPrompts * craftSize.versionsPerPrompt
    console.log(
      `\ncraft benchmark: body search over ${total} versions of one space, ${CONNECTIONS} connections, ${SECONDS} s per measurement\n`,
    )
    const cookie = await signIn(server.base, craftEmails.search, CRAFT_PASSWORD)
    const scenarios = [
      {
        name: `search a rare word (${RARE_WORD}, 1‰ of versions)`,
        paths: [`/api/v1/prompts?search=${RARE_WORD}`],
      },
      { name: `search a word in 1% (${MEDIUM_WORD})`, paths: [`/api/v1/prompts?search=${MEDIUM_WORD}`] },
      { name: 'search a part of a word (anzib)', paths: ['/api/v1/prompts?search=anzib'] },
      {
        name: 'search two common words (clarifying question)',
        paths: ['/api/v1/prompts?search=clarifying%20question'],
      },
    ]
    const rows: string[][] = []
    const results: Record<string, unknown>[] = []
    const plans: string[] = []
    for (const scenario of scenarios) {
      const statements: Statement[][] = [await recorder.statementsOf(scenario.paths[0]!, cookie)]
      const { api, sql } = await measureScenario(
        server.base,
        cookie,
        scenario,
        CRAFT_DATABASE_URL,
        statements,
      )
      rows.push(resultCells(scenario.name, api, sql))
      results.push({ scenario: scenario.name, statements: statements[0]!.length, api, sql })
      plans.push(
        `${scenario.name}: ${statements[0]!.length} statements; indexes ${(await indexesUsed(CRAFT_DATABASE_URL, statements[0]!, /"prompt/)).join(', ')}`,
      )
      console.log(`  measured ${scenario.name}`)
    }
    console.log(`\n${table(RESULT_COLUMNS, rows)}\n`)
    console.log(plans.join('\n'))

    saveResults('craft', {
      connections: CONNECTIONS,
      seconds: SECONDS,
      versions: total,
      search: results,
      transfer: transfer.map(([step, m, note]) => ({
        step,
        seconds: m.seconds,
        serverCpuSeconds: m.serverCpuSeconds,
        postgresCpuSeconds: m.postgresCpuSeconds,
        rssBeforeKb: m.rssBeforeKb,
        peakKb: m.peakKb,
        note,
      })),
    })
  } finally {
    await recorder.close()
    await stopServer(server)
  }
}
