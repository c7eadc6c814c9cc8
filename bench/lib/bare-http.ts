import { spawn } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import { startFlags } from '../../scripts/start-flags.mjs'
import { freePort } from '../../src/server/testing/server-process.ts'
import { FLOOR_CONNECTIONS } from './connections.ts'
import type { BenchServer } from './harness.ts'
import { trackProcess } from './processes.ts'
import type { Statement } from './replay.ts'

export interface BareAnswer {
  status: number
  headers: Record<string, string | string[]>
  body: string
}

/** What the bare server answers a path with, after running `statements` (none: it reads nothing). */
export interface BareReply {
  answer: BareAnswer
  statements?: Statement[]
}

/** What the bare server process receives at start. */
export interface BareSetup {
  /** By request path (query included); any other path gets a 500, which a measurement refuses. */
  replies: Record<string, BareReply>
  /** Where the statements run: needed when a reply has some. */
  databaseUrl?: string
  poolSize: number
}

export type BareServer = Pick<BenchServer, 'base' | 'process'> & { stop: () => Promise<void> }

/**
 * What a floor server is built on: `bare`, node:http writing each answer's bytes as they are; `hono`,
 * Hono's Node adapter with one route that serializes each answer's JSON anew (the same bytes).
 */
export type FloorKind = 'bare' | 'hono'

const FLOOR_SCRIPTS: Record<FloorKind, string> = {
  bare: 'bench/lib/bare-http-server.ts',
  hono: 'bench/lib/hono-floor-server.ts',
}

/**
 * Node's HTTP at its cheapest: a process on `node:http` that answers each path with fixed bytes.
 * Given statements for a path, it first runs them through a `pg` pool of the app's size, as the app
 * does (names, row mode and parsers as the app sent them, `replay`), and reads nothing of their
 * rows. What it costs per request is the least any Node server pays for that answer: the floor
 * of an API route whose statements and bytes it repeats (`bareFloor`). `kind` 'hono' serves the
 * same through Hono, serializing each answer's JSON on every request: the least a JSON API on the
 * app's framework pays (decision 0284).
 */
export async function startBareHttpServer(
  replies: Record<string, BareReply>,
  databaseUrl?: string,
  kind: FloorKind = 'bare',
): Promise<BareServer> {
  if (!databaseUrl && Object.values(replies).some((reply) => reply.statements?.length)) {
    throw new Error('the bare HTTP server needs a database URL to run statements')
  }
  const port = await freePort()
  const root = fileURLToPath(new URL('../..', import.meta.url))
  // The server's start flags (the same heap sizes), plus the run's own (BENCH_BARE_FLAGS, as
  // BENCH_SERVER_FLAGS for the server: `--cpu-prof` is refused in NODE_OPTIONS).
  const flags = [...startFlags(), ...(process.env.BENCH_BARE_FLAGS?.split(' ').filter(Boolean) ?? [])]
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', FLOOR_SCRIPTS[kind]], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, PORT: String(port) },
  })
  trackProcess(child)
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    await exited
  }
  // The replies come over the IPC channel: an environment variable would cap their size.
  const setup: BareSetup = { replies, databaseUrl, poolSize: FLOOR_CONNECTIONS }
  child.send(setup)
  // Listening, or gone (the port taken meanwhile): a benchmark must not wait for it forever.
  const [started] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => [new Error(`the ${kind} floor server exited with ${code}`)]),
  ])
  if (started instanceof Error) throw started
  return { base: `http://127.0.0.1:${port}`, process: child, stop }
}

/**
 * The floor of an API route: a floor server of `kind` (`startBareHttpServer`) that answers each of
 * `paths` with the bytes the app answers it with (read from `base` with `headers`, as the load
 * sends them) after running the statements the app runs for it (`statements[i]` for `paths[i]`,
 * as the warm app runs them: `SqlRecorder.statementsOf`).
 */
export async function bareFloor(
  base: string,
  headers: Record<string, string>,
  paths: string[],
  statements: Statement[][],
  databaseUrl: string,
  kind: FloorKind = 'bare',
): Promise<BareServer> {
  if (statements.length !== paths.length) {
    throw new Error(`${paths.length} paths but statements for ${statements.length}`)
  }
  const replies: Record<string, BareReply> = {}
  for (const [i, path] of paths.entries()) {
    replies[path] = { answer: await answerOf(base, path, headers), statements: statements[i]! }
  }
  return startBareHttpServer(replies, databaseUrl, kind)
}

/** An answer of the app as a client without compression receives it, for the bare server to repeat. */
export async function answerOf(
  base: string,
  path: string,
  headers: Record<string, string>,
): Promise<BareAnswer> {
  const response = await new Promise<http.IncomingMessage>((resolve, reject) =>
    http.get(`${base}${path}`, { headers }, resolve).on('error', reject),
  )
  const chunks: Buffer[] = []
  for await (const chunk of response) chunks.push(chunk)
  // Decoded once: a character split between two chunks would not survive decoding each.
  const body = Buffer.concat(chunks).toString('utf8')
  // Hop-by-hop headers and the date: node:http writes its own.
  const { connection: _, 'keep-alive': __, date: ___, 'transfer-encoding': ____, ...kept } = response.headers
  return { status: response.statusCode!, headers: kept as BareAnswer['headers'], body }
}
