// `npm run bench`: the benchmarks, against PostgreSQL in a database of their own
// (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/promptfolio_bench).
import { runPromptsBenchmark } from './prompts/run.ts'

const benchmarks: Record<string, () => Promise<void>> = { prompts: runPromptsBenchmark }

const chosen = process.argv.slice(2)
for (const name of chosen.length > 0 ? chosen : Object.keys(benchmarks)) {
  const run = benchmarks[name]
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ')}`)
    process.exit(1)
  }
  await run()
}
