import { type ChildProcess, spawn } from 'node:child_process'
import { createServer } from 'node:net'
import path from 'node:path'
import pg from 'pg'

/**
 * Shared by the conversation benchmark's seed and runner: its own database on the local
 * PostgreSQL (never the test database), and the real server started as a separate process.
 */
export const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
export const BENCH_DB = 'promptfolio_bench_conversations'
export const BENCH_URL = ADMIN_URL.replace(/\/[^/]*$/, `/${BENCH_DB}`)
export const BENCH_USER = {
  email: 'bench-conversations@bench.test',
  password: 'bench password for conversations',
}
export const CONVERSATIONS = 10_000
export const MESSAGES = 1_000_000
/** Most messages sit in one conversation so it has well over 10,000 pages of 50. */
export const BIG_CONVERSATION_MESSAGES = 600_000
export const BIG_CONVERSATION_TITLE = 'The big one'

const root = path.resolve(import.meta.dirname, '..')

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

export interface RunningServer {
  url: string
  stop(): Promise<void>
}

/** `npm start`'s server on the bench database (migrations apply at start), quiet logs. */
export async function startServer(): Promise<RunningServer> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: url,
      DATABASE_URL: BENCH_URL,
      DATA_DIR: path.join(root, '.tmp', 'bench-conversations'),
      AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-bench',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_MULTIPLIER: '1000000',
    },
  })
  const deadline = Date.now() + 60_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/api/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('the server did not start within 60 s')
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}

/** Signs in (or up, the first time) and answers the session cookie. */
export async function sessionCookie(
  url: string,
  signUp = false,
): Promise<{ cookie: string; userId: string }> {
  const body = signUp
    ? { ...BENCH_USER, confirmPassword: BENCH_USER.password, acceptTerms: true }
    : BENCH_USER
  const res = await fetch(`${url}/api/v1/auth/${signUp ? 'sign-up' : 'sign-in'}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: url },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`)
  const cookie = res.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ')
  const { user } = (await res.json()) as { user: { id: string } }
  return { cookie, userId: user.id }
}

export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return await fn(client)
  } finally {
    await client.end()
  }
}
