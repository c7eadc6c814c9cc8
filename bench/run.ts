// `npm run bench [name…]`: the benchmarks (names: the keys below; each also has `npm run bench:<name>`), against PostgreSQL, each
// in a database of its own (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/promptfolio_bench; BENCH_CONVERSATIONS_DATABASE_URL, default
// .../promptfolio_bench_conversations; BENCH_STARTUP_DATABASE_URL, .../promptfolio_bench_startup; BENCH_DASHBOARD_DATABASE_URL,
// .../promptfolio_bench_dashboard, with _<size> added for each of BENCH_DASHBOARD_SIZES;
// BENCH_WEBHOOKS_DATABASE_URL, .../promptfolio_bench_webhooks; BENCH_SEARCH_DATABASE_URL, .../promptfolio_bench_search; the others name theirs in their own files).
// One at a time, each within its PostgreSQL connection plan (lib/connections.ts, BENCH_MAX_CONNECTIONS):
// it starts once the server has that many free, and the next starts once it has closed them all.
import { adminSearchConnections, runAdminSearchBenchmark } from './admin-search/run.ts'
import { bundleConnections, runBundleBenchmark } from './bundle/run.ts'
import { conversationsConnections, runConversationsBenchmark } from './conversations/run.ts'
import { craftConnections, runCraftBenchmark } from './craft/run.ts'
import { dashboardConnections, runDashboardBenchmark } from './dashboard/run.ts'
import { growthConnections, runGrowthBenchmark } from './growth/run.ts'
import {
  APPLICATION_NAME,
  BenchConnectionError,
  type ConnectionPlan,
  connectionsOf,
  connectionUse,
  describeHolders,
  isTooManyClients,
  ownConnectionsClosed,
  reserveConnections,
} from './lib/connections.ts'
import { stopTrackedProcesses } from './lib/processes.ts'
import { mcpConnections, runMcpBenchmark } from './mcp/run.ts'
import { plansConnections, runPlansBenchmark } from './plans/run.ts'
import { promptsConnections, runPromptsBenchmark } from './prompts/run.ts'
import { replicasConnections, runReplicasBenchmark } from './replicas/run.ts'
import { runRuntimeCacheBenchmark, runtimeCacheConnections } from './runtime-cache/run.ts'
import { runScaleOutBenchmark, scaleOutConnections } from './scale-out/run.ts'
import { runSearchBenchmark, searchConnections } from './search/run.ts'
import { runStartupBenchmark, startupConnections } from './startup/run.ts'
import { runWebBenchmark, webConnections } from './web/run.ts'
import { runWebhooksBenchmark, webhooksConnections } from './webhooks/run.ts'

// Every connection this run opens, the servers' included, names it in pg_stat_activity, so that
// what a benchmark left open can be told from what others hold (lib/connections.ts).
process.env.PGAPPNAME = APPLICATION_NAME

const benchmarks: Record<string, [() => Promise<void>, ConnectionPlan]> = {
  prompts: [runPromptsBenchmark, promptsConnections],
  conversations: [runConversationsBenchmark, conversationsConnections],
  startup: [runStartupBenchmark, startupConnections],
  bundle: [runBundleBenchmark, bundleConnections],
  dashboard: [runDashboardBenchmark, dashboardConnections],
  plans: [runPlansBenchmark, plansConnections],
  'runtime-cache': [runRuntimeCacheBenchmark, runtimeCacheConnections],
  webhooks: [runWebhooksBenchmark, webhooksConnections],
  'scale-out': [runScaleOutBenchmark, scaleOutConnections],
  replicas: [runReplicasBenchmark, replicasConnections],
  craft: [runCraftBenchmark, craftConnections],
  growth: [runGrowthBenchmark, growthConnections],
  web: [runWebBenchmark, webConnections],
  search: [runSearchBenchmark, searchConnections],
  'admin-search': [runAdminSearchBenchmark, adminSearchConnections],
  mcp: [runMcpBenchmark, mcpConnections],
}

/**
 * Runs one benchmark within its connection plan; afterwards (also when it failed) stops what it left
 * running and waits for its connections to close, so that the next one starts with them free.
 */
async function runBenchmark(name: string, run: () => Promise<void>, plan: ConnectionPlan): Promise<void> {
  await reserveConnections(name, plan)
  let failure: unknown
  try {
    await run()
  } catch (error) {
    failure = error
  }
  const stopped = await stopTrackedProcesses()
  if (stopped > 0) console.warn(`${name}: stopped ${stopped} process(es) it left running`)
  if (plan.databaseUrl) {
    try {
      await ownConnectionsClosed(name, plan.databaseUrl)
    } catch (error) {
      failure ??= error
    }
  }
  if (failure !== undefined) throw failure
}

/** Why a benchmark failed, in words, when the cause is PostgreSQL's connections; else undefined. */
async function connectionCause(
  name: string,
  error: unknown,
  plan: ConnectionPlan,
): Promise<string | undefined> {
  if (error instanceof BenchConnectionError) {
    return error.message.startsWith(name) ? error.message : `${name}: ${error.message}`
  }
  if (!plan.databaseUrl) return undefined
  const refused = isTooManyClients(error)
  // A refusal inside a server or a bare floor shows here as failed requests: the server says whether it is full.
  const use = await connectionUse(plan.databaseUrl).catch((failure: unknown) =>
    failure instanceof BenchConnectionError ? failure : undefined,
  )
  if (use instanceof BenchConnectionError) return `${name} failed: ${use.message}`
  const free = use ? use.max - use.used : undefined
  const holders = use
    ? `${use.used} of its ${use.max} in use now: ${describeHolders(use.holders)}`
    : 'in use now unknown'
  const message = (error as Error)?.message?.split('\n')[0]
  if (refused) {
    return `${name} failed: PostgreSQL refused a connection: too many clients (${holders}). Another benchmark or test run held them; wait for it to end, then start again. (${message})`
  }
  if (free !== undefined && free < connectionsOf(plan) / 4) {
    return `${name} failed while PostgreSQL had few connections free (${holders}), most likely for want of them: wait for the other run to end, then start again. (${message})`
  }
  return undefined
}

const chosen = process.argv.slice(2)
for (const name of chosen.length > 0 ? chosen : Object.keys(benchmarks)) {
  const benchmark = benchmarks[name]
  if (!benchmark) {
    console.error(`unknown benchmark "${name}"; known: ${Object.keys(benchmarks).join(', ')}`)
    process.exit(1)
  }
  const [run, plan] = benchmark
  try {
    await runBenchmark(name, run, plan)
  } catch (error) {
    const cause = await connectionCause(name, error, plan)
    if (!cause) throw error
    console.error(`\n${cause}`)
    process.exit(1)
  }
}
