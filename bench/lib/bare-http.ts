import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { freePort } from '../../src/server/testing/server-process.ts'
import type { BenchServer } from './harness.ts'

/**
 * Node's HTTP at its cheapest: a process that answers every request with the same status, headers
 * and body on `node:http`, reading nothing and running no statement. What it costs per request is
 * the least any server on Node pays for an answer of that size, so a benchmark can say what no
 * Node server could beat on these cores.
 */
export async function startBareHttpServer(answer: {
  status: number
  headers: Record<string, string>
  body: string
}): Promise<Pick<BenchServer, 'base' | 'process'> & { stop: () => Promise<void> }> {
  const port = await freePort()
  const script = `
    const { status, headers, body } = JSON.parse(process.env.ANSWER)
    require('node:http')
      .createServer((_request, response) => response.writeHead(status, headers).end(body))
      .listen(Number(process.env.PORT), '127.0.0.1', () => process.send('listening'))
  `
  const child = spawn(process.execPath, ['-e', script], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, PORT: String(port), ANSWER: JSON.stringify(answer) },
  })
  await once(child, 'message')
  return {
    base: `http://127.0.0.1:${port}`,
    process: child,
    stop: async () => {
      const exited = once(child, 'exit')
      child.kill('SIGTERM')
      await exited
    },
  }
}
