import { type ChildProcess, spawn } from 'node:child_process'
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
