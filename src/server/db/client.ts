import { existsSync, mkdirSync } from 'node:fs'
import path from 'node:path'
import { setFlagsFromString } from 'node:v8'
import type { PGlite, Transaction } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { collectGarbage } from '../garbage.ts'
import { type ConnectionActivity, connectionActivity } from './connection-activity.ts'
import { applyMigrations, type MigrationSession, type WithMigrationLock } from './migrate.ts'
import { openReplicas, type ReplicaOptions, type ReplicaSet } from './replicas.ts'
import * as schema from './schema/index.ts'

export type Schema = typeof schema
/** Both drivers share drizzle's Postgres query builder; code never needs to know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type DatabaseKind = 'pglite' | 'postgres'

export interface Database {
  db: Db
  /**
   * For reads that tolerate a replica's lag (decision 0260): each statement goes to a healthy
   * replica the request may read from, else to the primary. `db` itself without replicas.
   */
  reader: Db
  /** The read replicas (DATABASE_READ_URL), or null. */
  replicas: Omit<ReplicaSet, 'reader' | 'close'> | null
  kind: DatabaseKind
  /**
   * Round-trip time of `select 1` in milliseconds. On the embedded database, while its one
   * connection is busy, the time of a statement that answered within the last second, or else of
   * the next one to answer (connection-activity.ts): a probe never queues behind work the
   * database is visibly doing. On PostgreSQL, on a connection of its own, outside the pool.
   */
  ping(): Promise<number>
  /**
   * Applies the migrations not applied yet (the app's, or those in `dir`); answers their names.
   * With nothing pending, two small selects and no migration lock.
   */
  migrate(dir?: string): Promise<string[]>
  /**
   * Calls `onNotify` with the payload of every NOTIFY on `channel` (delivered when the notifying
   * transaction commits, from any process). Resolves to a function that stops listening.
   * With `interruption`, a listening connection that is lost is reported (notifications sent
   * meanwhile are missed) and made again, which is reported too.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    interruption?: ListenInterruption,
  ): Promise<() => Promise<void>>
  /** Ends every connection; a second call waits for the first. */
  close(): Promise<void>
}

/** What a listener that must not miss a notification unnoticed hears of its connection. */
export interface ListenInterruption {
  /** The connection is lost: from now on notifications may be missed. */
  lost(): void
  /** Listening again after a loss. */
  resumed(): void
}

export type DatabaseOptions =
  | {
      kind: 'pglite'
      dataDir?: string
      /** An in-memory database starts as a copy of this one (`pgliteTemplate`) instead of empty. */
      template?: Blob
    }
  | {
      kind: 'postgres'
      url: string
      searchPath?: string
      max?: number
      replicas?: Omit<ReplicaOptions, 'max' | 'searchPath'>
    }

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = await (options.kind === 'pglite'
    ? openPglite(options.dataDir, options.template)
    : openPostgres(options))
  // Closing twice (a shutdown racing a failed start, a test that closed it itself) waits for the
  // first close: a second pool.end() would throw.
  const close = database.close
  let closed: Promise<void> | undefined
  database.close = () => {
    closed ??= close()
    return closed
  }
  return database
}

/**
 * An in-memory embedded database with every migration applied, as a data directory archive: the
 * API tests start each app's database from it (`template`), where initdb and the migrations cost
 * about 2.5 s of CPU per app.
 */
export async function pgliteTemplate(): Promise<Blob> {
  // WAL segments of 1 MB instead of 16: the archive shrinks from 43 to 34 MB, and each copy of it
  // took about 0.2 s less CPU to load (1.0 s against 1.2-1.3 s).
  const { database, client } = await openPgliteClient(undefined, undefined, ['--wal-segsize=1'])
  await database.migrate()
  const archive = await client.dumpDataDir('none')
  await database.close()
  return archive
}

/**
 * PostgreSQL's defaults assume a server of its own: 128 MB of shared buffers, which the embedded
 * database's WebAssembly memory fills and never gives back (the process idled at ~490 MB RSS).
 * The embedded mode serves one person or a small team; the operating system's page cache holds
 * the rest of the data files (decision 0282: 8 MB idles 9 MB lower than 16, and only a working
 * set between the two reads slower). `npm run bench:startup` measures the idle RSS.
 */
const PGLITE_SETTINGS = ['shared_buffers=8MB', 'wal_buffers=1MB', 'temp_buffers=1MB']

/** The embedded database: data in `dataDir` (or in memory when omitted). One connection. */
async function openPglite(dataDir?: string, template?: Blob): Promise<Database> {
  return (await openPgliteClient(dataDir, template)).database
}

async function openPgliteClient(
  dataDir?: string,
  template?: Blob,
  initDbStartParams?: string[],
): Promise<{ database: Database; client: PGlite }> {
  if (dataDir) mkdirSync(path.dirname(dataDir), { recursive: true })
  // Loaded here, not at start: a server on PostgreSQL never needs PGlite's code.
  const [{ PGlite }, { btree_gin }, { pg_trgm }, { drizzle: drizzlePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('drizzle-orm/pglite'),
  ])
  // V8 compiles PGlite's 9 MB of WebAssembly twice, the second time optimised in the background:
  // seconds of CPU at start and ~60 MB of code kept. The baseline compiler alone starts faster and
  // leaner; queries run a little slower, which the embedded mode's few users do not notice.
  setFlagsFromString('--liftoff-only')
  // In a new data directory PGlite runs initdb in a PGlite instance of its own. Its memory (about
  // 400 MB) is garbage afterwards, but V8 only collects it at its next full collection, which an
  // idle server may not reach for hours: the first start idled at about 600 MB.
  const initialises = dataDir !== undefined && !existsSync(path.join(dataDir, 'PG_VERSION'))
  const client = await PGlite.create({
    dataDir,
    loadDataDir: template,
    initDbStartParams,
    extensions: { pg_trgm, btree_gin },
    postgresqlconf: PGLITE_SETTINGS,
  })
  if (initialises) collectGarbage()
  const activity = connectionActivity()
  trackActivity(client, activity)
  const db = drizzlePglite(client, { schema }) as unknown as Db
  const session: MigrationSession = {
    exec: async (text) => {
      await client.exec(text)
    },
    query: async (text) => (await client.query(text)).rows as Record<string, unknown>[],
  }
  // PGlite has a single connection, so nothing else can migrate at the same time.
  const withLock: WithMigrationLock = (fn) => fn(session)
  const database: Database = {
    db,
    reader: db,
    replicas: null,
    kind: 'pglite',
    ping: () => {
      const probe = () => timed(() => db.execute(sql`select 1`))
      // A closed database has no answers to lean on: the probe fails at once.
      return client.closed ? probe() : activity.latency(probe)
    },
    migrate: (dir) => applyMigrations({ query: session.query, withLock }, dir),
    listen: async (channel, onNotify) => {
      // One connection in this process: a notification cannot be missed.
      const stop = await client.listen(channel, (payload) => onNotify(payload))
      return async () => {
        if (!client.closed) await stop()
      }
    },
    close: () => client.close(),
  }
  return { database, client }
}

/**
 * Counts every call that waits for or holds the embedded database's connection (queries, scripts,
 * transactions) and records each answer, a transaction's statements included, so that `ping` can
 * tell a busy database from a stuck one.
 */
function trackActivity(client: PGlite, activity: ConnectionActivity) {
  const query = client.query.bind(client)
  const exec = client.exec.bind(client)
  const transaction = client.transaction.bind(client)
  client.query = ((...args: Parameters<typeof query>) =>
    activity.track(() => query(...args))) as typeof client.query
  client.exec = (...args) => activity.track(() => exec(...args))
  client.transaction = (fn) => activity.track(() => transaction((tx) => fn(observed(tx, activity))))
}

/** A transaction whose statements' answers are recorded (it already counts as one call). */
function observed(tx: Transaction, activity: ConnectionActivity): Transaction {
  const statements: Pick<Transaction, 'query' | 'exec'> = {
    query: ((...args: Parameters<Transaction['query']>) =>
      activity.observe(() => tx.query(...args))) as Transaction['query'],
    exec: (...args) => activity.observe(() => tx.exec(...args)),
  }
  return Object.assign(Object.create(tx) as Transaction, statements)
}

/** Connections per PostgreSQL pool unless `max` says otherwise (benchmarks give a bare server the same). */
export const POSTGRES_POOL_SIZE = 10

async function openPostgres(options: Extract<DatabaseOptions, { kind: 'postgres' }>): Promise<Database> {
  // Loaded here, not at start: the embedded mode never needs the driver (nor compiles its code).
  const [{ default: pg }, { drizzle: drizzleNodePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ])
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? POSTGRES_POOL_SIZE,
    // Without a timeout a request waits forever on a database host that does not answer.
    connectionTimeoutMillis: 5_000,
    options: options.searchPath ? `-c search_path=${options.searchPath},public` : undefined,
  })
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {})
  // The health check's own connection: under load every pooled connection may be busy, and a probe
  // queued behind them measured the queue (over 100 ms), not the database.
  const probePool = new pg.Pool({
    connectionString: options.url,
    max: 1,
    connectionTimeoutMillis: 5_000,
    application_name: `promptfolio health ${process.pid}`,
  })
  probePool.on('error', () => {})
  const db = drizzleNodePg(pool, { schema }) as unknown as Db
  const listeners = new Set<() => Promise<void>>()
  const withLock: WithMigrationLock = async (fn) => {
    // Two processes starting at once: the second waits, then finds nothing left to apply.
    const client = await pool.connect()
    try {
      await client.query(`select pg_advisory_lock(hashtext('promptfolio.migrations'))`)
      return await fn({
        exec: async (text) => {
          await client.query(text)
        },
        query: async (text) => (await client.query(text)).rows,
      })
    } finally {
      await client.query(`select pg_advisory_unlock(hashtext('promptfolio.migrations'))`).catch(() => {})
      client.release()
    }
  }
  const listen: Database['listen'] = async (channel, onNotify, interruption) => {
    // LISTEN needs a connection of its own for as long as it listens.
    let stopped = false
    let current: InstanceType<typeof pg.Client> | undefined
    const connect = async () => {
      const client = new pg.Client({
        connectionString: options.url,
        connectionTimeoutMillis: 5_000,
        // A connection that only ever reads can die unnoticed (a NAT or a failover dropping it
        // silently): TCP keepalives end it, and 'lost' reconnects. The runtime cache also checks
        // that it still hears (its own fences), which does not wait for the kernel's probes.
        keepAlive: true,
        keepAliveInitialDelayMillis: 10_000,
        // Which process listens, for an operator (and a test) reading pg_stat_activity.
        application_name: `promptfolio listen ${channel} ${process.pid}`,
      })
      current = client
      // Only a connection that was listening can be lost; a failed attempt is retried by its caller.
      let listening = false
      const onLost = () => {
        if (!listening || stopped) return
        listening = false
        client.end().catch(() => {})
        if (!interruption) return
        interruption.lost()
        void reconnect()
      }
      client.on('error', onLost)
      client.on('end', onLost)
      client.on('notification', (message) => onNotify(message.payload ?? ''))
      await client.connect()
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
      listening = true
    }
    const reconnect = async () => {
      for (let attempt = 0; !stopped; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, Math.min(100 * 2 ** attempt, 5_000)))
        if (stopped) return
        try {
          await connect()
          interruption?.resumed()
          return
        } catch {
          await current?.end().catch(() => {})
        }
      }
    }
    await connect()
    const stop = async () => {
      stopped = true
      listeners.delete(stop)
      await current?.end().catch(() => {})
    }
    listeners.add(stop)
    return stop
  }
  const replicaSet =
    options.replicas && options.replicas.urls.length > 0
      ? await openReplicas(
          { ...options.replicas, max: options.max ?? POSTGRES_POOL_SIZE, searchPath: options.searchPath },
          {
            pg,
            primary: pool,
            primaryDb: db,
            drizzle: (client) => drizzleNodePg(client as never, { schema }) as unknown as Db,
            listen,
          },
        )
      : null
  return {
    db,
    reader: replicaSet?.reader ?? db,
    replicas: replicaSet,
    kind: 'postgres',
    ping: () => timed(() => probePool.query('select 1')),
    migrate: async (dir) => {
      const applied = await applyMigrations(
        { query: async (text) => (await pool.query(text)).rows, withLock },
        dir,
      )
      await replicaSet?.raiseSchemaFloor()
      return applied
    },
    listen,
    // Listeners still open (the runtime cache's lives as long as the database) end with it.
    close: async () => {
      await replicaSet?.close()
      await Promise.all([...listeners].map((stop) => stop()))
      await Promise.all([pool.end(), probePool.end()])
    },
  }
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  await fn()
  return Math.round((performance.now() - start) * 100) / 100
}
