import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'
import { createServer } from 'node:net'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../../..')

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

export interface ServerProcess {
  child: ChildProcess
  port: number
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

/**
 * The server's entry point (src/server/main.ts, what `npm start` runs bundled) as a real process on
 * `port`, with the test's environment plus `env`. Resolves once it logs that it listens; rejects
 * with its output if it exits before. Needs LOG_LEVEL info or lower (the default here).
 */
export async function startServerProcess(port: number, env: Record<string, string>): Promise<ServerProcess> {
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info', ...env },
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', () => {
      if (output.includes('"msg":"listening"')) resolve()
    })
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${output}`)))
  })
  return {
    child,
    port,
    output: () => output,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGTERM')
      return exited
    },
  }
}

/**
 * A round-robin HTTP proxy on 127.0.0.1, as a load balancer without sticky sessions: each request
 * (not each connection) goes to the next backend, and its answer says which in `x-backend`.
 */
export class RoundRobinProxy {
  private next = 0
  private server?: http.Server
  private readonly agent = new http.Agent({ keepAlive: true })
  /** Requests forwarded to each backend. */
  readonly served: number[]
  port = 0

  constructor(private readonly backendPorts: number[]) {
    this.served = backendPorts.map(() => 0)
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`
  }

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const index = this.next++ % this.backendPorts.length
      this.served[index]! += 1
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: this.backendPorts[index],
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent: this.agent,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-backend': String(index) })
          answer.pipe(res)
        },
      )
      upstream.on('error', (error) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' })
        res.end(`proxy: ${error.message}`)
      })
      req.pipe(upstream)
    })
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve))
    this.port = (this.server.address() as { port: number }).port
  }

  async close(): Promise<void> {
    this.agent.destroy()
    this.server?.closeAllConnections()
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()))
  }
}
