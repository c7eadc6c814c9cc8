import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { freePort } from '../../src/server/testing/server-process.ts'
import type { BenchServer } from './harness.ts'

export interface BareAnswer {
  status: number
  headers: Record<string, string | string[]>
  body: string
}

/**
 * Node's HTTP at its cheapest: a process that answers every request with the same status, headers
 * and body on `node:http`, reading nothing and running no statement. What it costs per request is
 * the least any server on Node pays for an answer of that size, so a benchmark can say what no
 * Node server could beat on these cores.
 */
export async function startBareHttpServer(
  answer: BareAnswer,
): Promise<Pick<BenchServer, 'base' | 'process'> & { stop: () => Promise<void> }> {
  const port = await freePort()
  // The answer comes over the IPC channel: an environment variable would cap its size.
  const script = `
    process.once('message', ({ status, headers, body }) => {
      require('node:http')
        .createServer((_request, response) => response.writeHead(status, headers).end(body))
        .listen(Number(process.env.PORT), '127.0.0.1', () => process.send('listening'))
    })
  `
  const child = spawn(process.execPath, ['-e', script], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, PORT: String(port) },
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = once(child, 'exit')
    child.kill('SIGTERM')
    await exited
  }
  child.send(answer)
  // Listening, or gone (the port taken meanwhile): a benchmark must not wait for it forever.
  const [started] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => [new Error(`the bare HTTP server exited with ${code}`)]),
  ])
  if (started instanceof Error) throw started
  return { base: `http://127.0.0.1:${port}`, process: child, stop }
}
