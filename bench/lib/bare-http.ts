import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../src/server/testing/server-process.ts'
import type { BenchServer } from './harness.ts'
import type { Statement } from './sql-capture.ts'

export interface BareAnswer {
  status: number
  headers: Record<string, string | string[]>
  body: string
}

/** Statements for the bare server to run before each answer, and where. */
export interface BareStatements {
  databaseUrl: string
  statements: Statement[]
}

/**
 * Node's HTTP at its cheapest: a process that answers every request with the same status, headers
 * and body on `node:http`, reading nothing. What it costs per request is the least any server on
 * Node pays for an answer of that size, so a benchmark can say what no Node server could beat on
 * these cores. Given `statements`, it runs them through a `pg` pool first, as the app does, and
 * still reads nothing of their rows: the least a Node server pays for an answer that needs them.
 */
export async function startBareHttpServer(
  answer: BareAnswer,
  statements?: BareStatements,
): Promise<Pick<BenchServer, 'base' | 'process'> & { stop: () => Promise<void> }> {
  const port = await freePort()
  // The answer comes over the IPC channel: an environment variable would cap its size.
  const script = `
    process.once('message', ({ answer: { status, headers, body }, statements }) => {
      let run = async () => {}
      if (statements) {
        const pg = require('pg')
        // The app's pool size (openPostgres).
        const pool = new pg.Pool({ connectionString: statements.databaseUrl, max: 10 })
        run = async () => {
          for (const { text, values, name } of statements.statements) {
            await pool.query(name ? { name, text, values } : { text, values })
          }
        }
      }
      require('node:http')
        .createServer((_request, response) =>
          run().then(
            () => response.writeHead(status, headers).end(body),
            (error) => response.writeHead(500).end(String(error)),
          ),
        )
        .listen(Number(process.env.PORT), '127.0.0.1', () => process.send('listening'))
    })
  `
  const child = spawn(process.execPath, ['-e', script], {
    // Run from the project, where the child's require finds pg.
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, PORT: String(port) },
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    await exited
  }
  child.send({ answer, statements })
  // Listening, or gone (the port taken meanwhile): a benchmark must not wait for it forever.
  const [started] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => [new Error(`the bare HTTP server exited with ${code}`)]),
  ])
  if (started instanceof Error) throw started
  return { base: `http://127.0.0.1:${port}`, process: child, stop }
}
