// `npm run bench [name…]`: the benchmarks (names: the keys below; each also has `npm run bench:<name>`), against PostgreSQL, each
// in a database of its own (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/promptfolio_bench; BENCH_CONVERSATIONS_DATABASE_URL, default
// .../promptfolio_bench_conversations; BENCH_STARTUP_DATABASE_URL, .../promptfolio_bench_startup; BENCH_DASHBOARD_DATABASE_URL,
// .../promptfolio_bench_dashboard, with _<size> added for each of BENCH_DASHBOARD_SIZES;
// BENCH_WEBHOOKS_DATABASE_URL, .../promptfolio_bench_webhooks; BENCH_SEARCH_DATABASE_URL, .../promptfolio_bench_search; the others name theirs in their own files).
import { runAdminSearchBenchmark } from './admin-search/run.ts'
import { runBundleBenchmark } from './bundle/run.ts'
import { runConversationsBenchmark } from './conversations/run.ts'
import { runCraftBenchmark } from './craft/run.ts'
import { runDashboardBenchmark } from './dashboard/run.ts'
import { runGrowthBenchmark } from './growth/run.ts'
import { runMcpBenchmark } from './mcp/run.ts'
import { runPlansBenchmark } from './plans/run.ts'
import { runPromptsBenchmark } from './prompts/run.ts'
import { runReplicasBenchmark } from './replicas/run.ts'
import { runRuntimeCacheBenchmark } from './runtime-cache/run.ts'
import { runScaleOutBenchmark } from './scale-out/run.ts'
import { runSearchBenchmark } from './search/run.ts'
import { runStartupBenchmark } from './startup/run.ts'
import { runWebBenchmark } from './web/run.ts'
import { runWebhooksBenchmark } from './webhooks/run.ts'

const benchmarks: Record<string, () => Promise<void>> = {
  prompts: runPromptsBenchmark,
  conversations: runConversationsBenchmark,
  startup: runStartupBenchmark,
  bundle: runBundleBenchmark,
  dashboard: runDashboardBenchmark,
  plans: runPlansBenchmark,
  'runtime-cache': runRuntimeCacheBenchmark,
  webhooks: runWebhooksBenchmark,
  'scale-out': runScaleOutBenchmark,
  replicas: runReplicasBenchmark,
  craft: runCraftBenchmark,
  growth: runGrowthBenchmark,
  web: runWebBenchmark,
  search: runSearchBenchmark,
  'admin-search': runAdminSearchBenchmark,
  mcp: runMcpBenchmark,
}

const chosen = process.argv.slice(2)
for (const name of chosen.length > 0 ? chosen : Object.keys(benchmarks)) {
  const run = benchmarks[name]
  if (!run) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ')}`)
    process.exit(1)
  }
  await run()
}
