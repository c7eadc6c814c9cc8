import { type ChildProcess, spawn } from 'node:child_process'
import http from 'node:http'
import { createServer } from 'node:net'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../../..')

/** A free TCP port on the loopback. */
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
  /** `http://localhost:<port>`, also the server's APP_URL (the Origin a client sends). */
  base: string
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string
  /** SIGTERM, then the exit code (the server closes its database first). */
  stop(): Promise<number | null>
  /** SIGKILL: no shutdown of any kind, as when the machine or the OOM killer ends it. */
  kill(): Promise<void>
}

/**
 * The server's entry point (src/server/main.ts, the code `npm start` runs bundled) as a real
 * process, with `env` on top of this process's environment; resolves once it says it is running
 * (printed at any LOG_LEVEL), rejects with its output if it exits first. `uid`/`gid`: run it as another user (root only).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number; uid?: number; gid?: number } = {},
): Promise<ServerProcess> {
  const port = options.port ?? (await freePort())
  const base = `http://localhost:${port}`
  let output = ''
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    uid: options.uid,
    gid: options.gid,
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: base,
      LOG_LEVEL: 'info',
      DATABASE_URL: '',
      ...env,
    },
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk) => {
      output += chunk
    })
  }
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', () => {
      if (output.includes('Promptfolio is running at')) resolve()
    })
    void exited.then((code) => reject(new Error(`server exited with ${code}: ${output}`)))
  })
  return {
    child,
    port,
    base,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
      return exited
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
      await exited
    },
  }
}

/** Runs `start` and answers what it rejected with (a start that must fail), or fails if it started. */
export async function startFailure(start: Promise<ServerProcess>): Promise<string> {
  try {
    const server = await start
    await server.stop()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('the server started')
}

/**
 * A round-robin HTTP proxy on 127.0.0.1, as a load balancer without sticky sessions: each request
 * (not each connection) goes to the next backend, and its answer says which in `x-backend`.
 */
export class RoundRobinProxy {
  private next = 0
  private server?: http.Server
  // An idle connection is dropped after 1 s, well before the app's 5 s keep-alive timeout: reusing
  // one the app has just closed failed the request with a 502 (seen once, at a load average of 18).
  private readonly agent = new http.Agent({ keepAlive: true, timeout: 1000 })
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
