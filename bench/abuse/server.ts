import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { setPriority, tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { startFlags } from '../../scripts/start-flags.mjs'
import { freePort } from '../../src/server/testing/server-process.ts'

const root = path.resolve(import.meta.dirname, '../..')

/** A fresh database for one run: its variables for the server, and how to throw it away. */
export interface Database {
  name: string
  env: Record<string, string>
  drop(): Promise<void>
}

/** The embedded database in a temporary DATA_DIR. */
export function embeddedDatabase(): Database {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-abuse-'))
  return {
    name: 'PGlite',
    env: { DATA_DIR: dataDir, DATABASE_URL: '' },
    drop: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

/** A schema of its own in the PostgreSQL database at `url`, as the API tests make one per file. */
export async function postgresDatabase(url: string): Promise<Database> {
  const schema = `abuse_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  await admin.end()
  const withSchema = new URL(url)
  withSchema.searchParams.set('options', `-c search_path=${schema},public`)
  const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-abuse-'))
  return {
    name: 'PostgreSQL',
    env: { DATABASE_URL: withSchema.toString(), DATA_DIR: dataDir },
    drop: async () => {
      const client = new pg.Client({ connectionString: url })
      await client.connect()
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await client.end()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The built server (`dist/server/main.mjs`, what `npm start` runs) as a process of its own. */
export class ServerUnderTest {
  private child: ChildProcess | null = null
  private exit: string | null = null
  private stderr = ''
  port = 0

  constructor(private readonly env: Record<string, string>) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`
  }

  get pid(): number {
    return this.child?.pid ?? 0
  }

  /** Null while it runs; else how it ended (exit code or signal). */
  get ended(): string | null {
    return this.exit
  }

  /** The last lines it wrote to stderr (why it died). */
  lastWords(): string {
    return this.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 400)
  }

  /** Starts it (on the same database as before, after a restart) and waits for its first healthy answer. */
  async start(): Promise<void> {
    // A restart keeps the port: APP_URL is the origin the sessions' requests name.
    if (this.port === 0) this.port = await freePort()
    this.exit = null
    this.stderr = ''
    const child = spawn(process.execPath, [...startFlags(), 'dist/server/main.mjs'], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...this.env, PORT: String(this.port), APP_URL: this.base },
    })
    this.child = child
    // It inherits the harness's lower priority (run.ts); the server under test runs at the normal one.
    if (process.getuid?.() === 0 && child.pid !== undefined) setPriority(child.pid, 0)
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000)
    })
    child.on('exit', (code, signal) => {
      this.exit = signal ? `killed by ${signal}` : `exited with ${code}`
    })
    const deadline = Date.now() + 120_000
    while (Date.now() < deadline) {
      if (this.exit) throw new Error(`the server ${this.exit} at start: ${this.lastWords()}`)
      try {
        if ((await fetch(`${this.base}/api/health`)).ok) return
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    await this.kill()
    throw new Error('the server did not answer /api/health within 120 s')
  }

  /** SIGKILL: for a server stuck on a request it will not finish. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL')
  }

  /** SIGTERM, as at the end of a run. */
  async stop(): Promise<void> {
    await this.signal('SIGTERM')
  }

  private async signal(signal: NodeJS.Signals): Promise<void> {
    const child = this.child
    if (!child || child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once('exit', resolve))
    child.kill(signal)
    await exited
  }
}
