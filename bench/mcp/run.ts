import autocannon from 'autocannon'
import { signUpAccounts } from '../lib/accounts.ts'
import { type ConnectionPlan, RECORDER_CONNECTIONS, SERVER_CONNECTIONS } from '../lib/connections.ts'
import { ensureBenchDatabase } from '../lib/database.ts'
import { SECONDS, signIn, withBenchServer } from '../lib/harness.ts'
import { saveResults } from '../lib/results.ts'
import { type Measurement, table } from '../lib/stats.ts'

/**
 * The MCP server's runtime read next to the Langfuse fetch of the same prompt, at 1 connection
 * (p50, p99): `prompts/get` (one JSON-RPC POST to /api/public/mcp, stateless: the key's check, the
 * prompt, its version, the compile and the MCP answer) against GET /api/public/v2/prompts/{name}
 * (the key's check and the version in one statement, no compile). Both over HTTP with the same key.
 */
const DATABASE_URL =
  process.env.BENCH_MCP_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/promptfolio_bench_mcp'
const PASSWORD = 'benchmark password 1'
const EMAIL = 'bench-mcp@bench.test'
const NAME = 'support/triage'

async function measure(
  base: string,
  request: { method: 'GET' | 'POST'; path: string; body?: string },
  headers: Record<string, string>,
  seconds: number,
): Promise<Measurement> {
  const result = await autocannon({
    url: base,
    connections: 1,
    duration: seconds,
    headers,
    requests: [request],
  })
  if (result.errors > 0 || result['2xx'] !== result.requests.total) {
    throw new Error(
      `${request.path}: ${result.errors} errors, ${result.requests.total - result['2xx']} not 2xx`,
    )
  }
  return { requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 }
}

/**
 * What this benchmark holds at once at most on the shared PostgreSQL server
 * (bench/lib/connections.ts). The real server and the SQL recorder beside it.
 */
export const mcpConnections: ConnectionPlan = {
  databaseUrl: DATABASE_URL,
  holds: { 'app server': SERVER_CONNECTIONS, 'SQL recorder': RECORDER_CONNECTIONS },
}

export async function runMcpBenchmark(): Promise<void> {
  await ensureBenchDatabase(true, DATABASE_URL)
  await signUpAccounts(DATABASE_URL, [EMAIL], PASSWORD)
  await withBenchServer(DATABASE_URL, async ({ base }) => {
    const cookie = await signIn(base, EMAIL, PASSWORD)
    const keyRes = await fetch(`${base}/api/v1/api-keys`, {
      method: 'POST',
      headers: { cookie, Origin: base, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'bench', scope: 'read_write' }),
    })
    const key = (await keyRes.json()) as { publicKey: string; secretKey: string }
    const basic = `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}`
    const created = await fetch(`${base}/api/public/v2/prompts`, {
      method: 'POST',
      headers: { authorization: basic, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        name: NAME,
        prompt: 'Triage this ticket for {{team}}: {{ticket}} '.repeat(10),
        labels: ['production'],
      }),
    })
    if (created.status !== 201) throw new Error(`create: ${created.status} ${await created.text()}`)

    const mcpHeaders = {
      authorization: `Bearer ${key.secretKey}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    }
    const mcpRequest = {
      method: 'POST' as const,
      path: '/api/public/mcp',
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'prompts/get',
        params: { name: NAME, arguments: { team: 'billing', ticket: 'T-1: refund not received' } },
      }),
    }
    const check = await fetch(`${base}${mcpRequest.path}`, {
      method: 'POST',
      headers: mcpHeaders,
      body: mcpRequest.body,
    })
    const answer = (await check.json()) as { result?: { messages: unknown[] } }
    if (!answer.result?.messages.length) throw new Error(`prompts/get: ${JSON.stringify(answer)}`)
    const langfuseRequest = {
      method: 'GET' as const,
      path: `/api/public/v2/prompts/${encodeURIComponent(NAME)}?label=production`,
    }

    const warm = Math.max(1, Math.round(SECONDS / 5))
    await measure(base, mcpRequest, mcpHeaders, warm)
    await measure(base, langfuseRequest, { authorization: basic }, warm)
    const mcp = await measure(base, mcpRequest, mcpHeaders, SECONDS)
    const langfuse = await measure(base, langfuseRequest, { authorization: basic }, SECONDS)
    console.log(`\nMCP benchmark: the same prompt, 1 connection, ${SECONDS} s each\n`)
    const row = (name: string, m: Measurement) => [
      name,
      m.p50.toFixed(2),
      m.p99.toFixed(2),
      m.requestsPerSecond.toFixed(0),
    ]
    console.log(
      table(
        ['read', 'p50 ms', 'p99 ms', 'req/s'],
        [row('MCP prompts/get (compiled)', mcp), row('Langfuse GET v2/prompts/{name} (raw)', langfuse)],
      ),
    )
    saveResults('mcp', { seconds: SECONDS, mcp, langfuse })
  })
}
