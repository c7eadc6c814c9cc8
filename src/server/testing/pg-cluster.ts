import { execFile, execFileSync } from 'node:child_process'
import { chownSync, mkdtempSync, rmSync } from 'node:fs'
import { appendFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'
import { freePort } from './server-process.ts'

/**
 * A PostgreSQL primary and streaming replicas of its own, in a temporary folder on free ports:
 * `initdb`, `pg_basebackup -R`, `pg_ctl`, run as the `postgres` user when this process is root
 * (PostgreSQL refuses to run as root). The machine's own cluster is never touched. For the replica
 * suite and the replica benchmark.
 */

const run = promisify(execFile)
const binDir = process.env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin'
const asRoot = process.getuid?.() === 0

interface PostgresUser {
  uid: number
  gid: number
}

function postgresUser(): PostgresUser | null {
  if (!asRoot) return null
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim())
  return { uid: id('-u'), gid: id('-g') }
}

async function pgTool(user: PostgresUser | null, tool: string, args: string[]): Promise<void> {
  const file = path.join(binDir, tool)
  try {
    await run(user ? 'runuser' : file, user ? ['-u', 'postgres', '--', file, ...args] : args, {
      // The server started by pg_ctl inherits these; a test's environment must not reach it.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
    })
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string }
    throw new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || (error as Error).message}`)
  }
}

export interface ClusterNode {
  port: number
  dataDir: string
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string
  stop(): Promise<void>
  start(): Promise<void>
}

export interface TestCluster {
  primary: ClusterNode
  replicas: ClusterNode[]
  /** Stops every server (immediately) and removes the folder. */
  close(): Promise<void>
}

export interface ClusterOptions {
  database: string
  replicas: number
  /** Replicas apply each commit this long after it (`recovery_min_apply_delay`): a replica that lags. */
  applyDelayMs?: number
}

/**
 * Servers running and folders made so far: stopped and removed even when the test process exits
 * without its afterAll (a failed start, an interrupted run).
 */
const running = new Set<string>()
const folders = new Set<string>()
process.once('exit', () => {
  for (const dataDir of running) {
    try {
      execFileSync(asRoot ? 'runuser' : path.join(binDir, 'pg_ctl'), [
        ...(asRoot ? ['-u', 'postgres', '--', path.join(binDir, 'pg_ctl')] : []),
        '-D',
        dataDir,
        '-m',
        'immediate',
        'stop',
      ])
    } catch {
      // Already stopped.
    }
  }
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

export async function startCluster(options: ClusterOptions): Promise<TestCluster> {
  const user = postgresUser()
  const base = mkdtempSync(path.join(tmpdir(), 'promptfolio-cluster-'))
  if (user) chownSync(base, user.uid, user.gid)
  folders.add(base)
  const nodes: ClusterNode[] = []
  const node = async (name: string, settings: string): Promise<ClusterNode> => {
    const port = await freePort()
    const dataDir = path.join(base, name)
    const log = path.join(base, `${name}.log`)
    let configured = false
    return {
      port,
      dataDir,
      url: `postgres://postgres@127.0.0.1:${port}/${options.database}`,
      start: async () => {
        // Settings appended last win over what a base backup copied from the primary (its port too).
        if (!configured)
          await appendFile(path.join(dataDir, 'postgresql.conf'), `\n${settings}port = ${port}\n`)
        configured = true
        await pgTool(user, 'pg_ctl', ['-D', dataDir, '-l', log, '-w', '-t', '60', 'start'])
        running.add(dataDir)
      },
      stop: async () => {
        await pgTool(user, 'pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop'])
        running.delete(dataDir)
      },
    }
  }
  const close = async () => {
    for (const n of [...nodes].reverse()) {
      if (!running.has(n.dataDir)) continue
      await pgTool(user, 'pg_ctl', ['-D', n.dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => {})
      running.delete(n.dataDir)
    }
    rmSync(base, { recursive: true, force: true })
    folders.delete(base)
  }
  try {
    const primary = await node(
      'primary',
      [
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${base}'`,
        'wal_level = replica',
        'max_wal_senders = 10',
        'hot_standby = on',
        // The replica tells the primary which rows its reads still need: no reads cancelled by vacuum.
        'hot_standby_feedback = on',
        "shared_preload_libraries = 'pg_stat_statements'",
        'max_connections = 200',
        // A throwaway cluster: durability is not what is tested.
        'fsync = off',
        'synchronous_commit = off',
        'full_page_writes = off',
        '',
      ].join('\n'),
    )
    nodes.push(primary)
    await pgTool(user, 'initdb', [
      '-D',
      primary.dataDir,
      '-U',
      'postgres',
      '--auth=trust',
      '-E',
      'UTF8',
      '--no-sync',
    ])
    await primary.start()
    const admin = new pg.Client({ connectionString: primary.url.replace(/\/[^/]*$/, '/postgres') })
    await admin.connect()
    try {
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(options.database)}`)
    } finally {
      await admin.end()
    }
    const app = new pg.Client({ connectionString: primary.url })
    await app.connect()
    try {
      await app.query('CREATE EXTENSION pg_stat_statements')
    } finally {
      await app.end()
    }
    for (let i = 0; i < options.replicas; i++) {
      const delay = options.applyDelayMs ? `recovery_min_apply_delay = '${options.applyDelayMs}ms'\n` : ''
      const replica = await node(`replica${i}`, delay)
      nodes.push(replica)
      await pgTool(user, 'pg_basebackup', [
        '-h',
        '127.0.0.1',
        '-p',
        String(primary.port),
        '-U',
        'postgres',
        '-D',
        replica.dataDir,
        '-R',
        '-X',
        'stream',
        // Without it the backup waits for a spread checkpoint: most of a minute.
        '--checkpoint=fast',
        '--no-sync',
      ])
      await replica.start()
    }
    return { primary, replicas: nodes.slice(1), close }
  } catch (error) {
    await close()
    throw error
  }
}
