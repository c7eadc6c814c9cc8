import { spawn } from 'node:child_process'
import { once } from 'node:events'
import http from 'node:http'
import { fileURLToPath } from 'node:url'
import { freePort } from '../../src/server/testing/server-process.ts'
import type { BenchServer } from './harness.ts'

export interface BareAnswer {
  status: number
  headers: Record<string, string | string[]>
  body: string
}

/**
 * Node's HTTP at its cheapest: a process that answers every request with the same status, headers
 * and body on `node:http`, reading nothing. What it costs per request is the least any server on
 * Node pays for an answer of that size, so a benchmark can say what no Node server could beat on
 * these cores.
 */
export async function startBareHttpServer(
  answer: BareAnswer,
): Promise<Pick<BenchServer, 'base' | 'process'> & { stop: () => Promise<void> }> {
  const port = await freePort()
  // The answer comes over the IPC channel: an environment variable would cap its size.
  const script = `
    process.once('message', ({ answer: { status, headers, body } }) => {
      require('node:http')
        .createServer((_request, response) => response.writeHead(status, headers).end(body))
        .listen(Number(process.env.PORT), '127.0.0.1', () => process.send('listening'))
    })
  `
  const child = spawn(process.execPath, ['-e', script], {
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
  child.send({ answer })
  // Listening, or gone (the port taken meanwhile): a benchmark must not wait for it forever.
  const [started] = await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) => [new Error(`the bare HTTP server exited with ${code}`)]),
  ])
  if (started instanceof Error) throw started
  return { base: `http://127.0.0.1:${port}`, process: child, stop }
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
