import { createHash } from 'node:crypto'
import type pg from 'pg'
import type { Db } from './client.ts'
import {
  chooseReplica,
  currentReadScope,
  higherFloor,
  type Lsn,
  PrimaryPositions,
  parseLsn,
  type ReadNeed,
  type ReplicaState,
  type ReplicaView,
  stateOfProbe,
} from './read-routing.ts'
import { isDatabaseUnavailable } from './unavailable.ts'

/** One replica as /api/health and the admin's System Health show it (never its URL's password). */
export interface ReplicaStatus {
  /** host:port/database of its URL. */
  name: string
  state: ReplicaState
  /** How long it has missed data the primary had (null: unknown, e.g. down). */
  lagMs: number | null
  /** Reads this process sent it (and it answered) since the start. */
  reads: number
  checkedAt: string | null
}

export interface ReplicaOptions {
  urls: string[]
  /** A replica further behind than this is skipped until it catches up (DATABASE_READ_MAX_LAG_MS). */
  maxLagMs: number
  /** How often each replica (and the primary's position) is probed. */
  probeIntervalMs?: number
  /** Connections per replica (as many as the primary's pool by default). */
  max: number
  searchPath?: string
}

export interface ReplicaSet {
  /** Reads that tolerate lag; each statement goes where `chooseReplica` says (else the primary). */
  reader: Db
  statuses(): ReplicaStatus[]
  /**
   * After a request of `caller` wrote: its reads (in every process, told by a notification) go to
   * the primary until a replica has replayed the primary's position now.
   */
  markWrite(caller: string): Promise<void>
  /** The primary's write position now, for the runtime cache's fills after a notification. */
  primaryPosition(): Promise<Lsn>
  /**
   * After migrations: no read goes to a replica that has not replayed the schema this process
   * runs on (a new column read from a replica without it would fail).
   */
  raiseSchemaFloor(): Promise<void>
  close(): Promise<void>
}

/** Where callers' writes are told to every process. */
export const READ_FLOORS_CHANNEL = 'promptfolio_read_floors'
/** Callers remembered per process; the oldest is forgotten past this (its replica has long caught up). */
const MAX_MARKS = 100_000

/** What identifies a caller across processes without carrying its secret: a hash of its credential. */
export function callerOf(headers: Headers): string | null {
  const credential =
    headers.get('authorization') ??
    /(?:^|;\s*)[\w.-]*session_token=([^;]+)/.exec(headers.get('cookie') ?? '')?.[1]
  return credential ? createHash('sha256').update(credential).digest('base64url').slice(0, 22) : null
}

type Listen = (
  channel: string,
  onNotify: (payload: string) => void,
  interruption: { lost(): void; resumed(): void },
) => Promise<() => Promise<void>>

interface Replica extends ReplicaView {
  name: string
  pool: pg.Pool
  probePool: pg.Pool
  lagMs: number | null
  reads: number
  checkedAt: Date | null
}

/** A write-routing mark: reads of the caller need `lsn` replayed, or the primary until `until`. */
interface Mark {
  lsn: Lsn | null
  until: number
}

export async function openReplicas(
  options: ReplicaOptions,
  deps: { pg: typeof pg; primary: pg.Pool; primaryDb: Db; drizzle: (client: unknown) => Db; listen: Listen },
): Promise<ReplicaSet> {
  const interval = options.probeIntervalMs ?? 1_000
  const replicas: Replica[] = options.urls.map((url) => {
    const pool = new deps.pg.Pool({
      connectionString: url,
      max: options.max,
      // A replica that does not answer is skipped: waiting 5 s for it, as for the primary, is too long.
      connectionTimeoutMillis: 2_000,
      options: options.searchPath ? `-c search_path=${options.searchPath},public` : undefined,
    })
    pool.on('error', () => {})
    const probePool = new deps.pg.Pool({
      connectionString: url,
      max: 1,
      connectionTimeoutMillis: 2_000,
      query_timeout: 2_000,
      application_name: `promptfolio replica probe ${process.pid}`,
    })
    probePool.on('error', () => {})
    return {
      name: nameOf(url),
      pool,
      probePool,
      state: 'starting',
      replayed: null,
      lagMs: null,
      reads: 0,
      checkedAt: null,
    }
  })
  const positions = new PrimaryPositions(Math.max(2 * options.maxLagMs, 10 * interval))
  const marks = new Map<string, Mark>()
  // Until this process hears every caller's writes, a caller's reads cannot know their floor.
  let marksHeard = false
  let turn = 0
  let schemaFloor: Lsn | null = null

  const setMark = (caller: string, mark: Mark) => {
    const kept = marks.get(caller)
    marks.delete(caller)
    // The later of the two positions known; an unknown one is covered by `until` meanwhile.
    const lsn = kept?.lsn == null ? mark.lsn : mark.lsn === null || kept.lsn > mark.lsn ? kept.lsn : mark.lsn
    marks.set(caller, { lsn, until: Math.max(kept?.until ?? 0, mark.until) })
    if (marks.size > MAX_MARKS) marks.delete(marks.keys().next().value!)
  }

  const stopListening = await deps
    .listen(
      READ_FLOORS_CHANNEL,
      (payload) => {
        const at = payload.lastIndexOf('|')
        const lsn = parseLsn(payload.slice(at + 1))
        if (at > 0 && lsn !== null) setMark(payload.slice(0, at), { lsn, until: 0 })
      },
      { lost: () => (marksHeard = false), resumed: () => (marksHeard = true) },
    )
    .then(
      (stop) => {
        marksHeard = true
        return stop
      },
      () => async () => {},
    )

  const needOf = (): ReadNeed => {
    const scope = currentReadScope()
    if (scope?.primary) return { primary: true }
    let floor = higherFloor(scope?.floor ?? null, schemaFloor)
    if (!scope) return floor === 'primary' ? { primary: true } : { primary: false, floor }
    if (scope.caller !== null) {
      if (!marksHeard) return { primary: true }
      const mark = marks.get(scope.caller)
      if (mark) {
        if (mark.until > Date.now()) return { primary: true }
        floor = higherFloor(floor, mark.lsn)
      }
    }
    return floor === 'primary' ? { primary: true } : { primary: false, floor }
  }

  const router = {
    query: async (config: unknown, values?: unknown) => {
      const index = chooseReplica(replicas, needOf(), turn++)
      if (index >= 0) {
        const replica = replicas[index]!
        try {
          const result = await replica.pool.query(config as pg.QueryConfig, values as unknown[])
          replica.reads += 1
          return result
        } catch (error) {
          // A replica that went away (or cancelled the read for a conflict with its recovery) loses
          // no request: the read runs on the primary, and the replica waits for its next good probe.
          if (isDatabaseUnavailable(error)) replica.state = 'down'
          else if (!isRecoveryConflict(error)) throw error
        }
      }
      return deps.primary.query(config as pg.QueryConfig, values as unknown[])
    },
  }
  const reader = deps.drizzle(router)
  // A transaction needs one connection: it is never split across servers, and runs on the primary.
  reader.transaction = ((...args: Parameters<Db['transaction']>) =>
    deps.primaryDb.transaction(...args)) as Db['transaction']

  const probeReplica = async (replica: Replica) => {
    try {
      const { rows } = await replica.probePool.query<{ in_recovery: boolean; replayed: string | null }>(
        'SELECT pg_is_in_recovery() AS in_recovery, pg_last_wal_replay_lsn()::text AS replayed',
      )
      const replayed = parseLsn(rows[0]?.replayed)
      if (replayed !== null && (replica.replayed === null || replayed > replica.replayed)) {
        replica.replayed = replayed
      }
      const inRecovery = rows[0]?.in_recovery === true
      replica.lagMs = replayed === null ? null : positions.lagMs(replayed, Date.now())
      replica.state = stateOfProbe({ inRecovery, lagMs: replica.lagMs }, options.maxLagMs)
    } catch {
      replica.state = stateOfProbe('failed', options.maxLagMs)
      replica.lagMs = null
      // A replica restarted from a base backup may be behind where it was: learn its position anew.
      replica.replayed = null
    }
    replica.checkedAt = new Date()
  }

  const primaryPosition = async (): Promise<Lsn> => {
    const { rows } = await deps.primary.query<{ lsn: string }>(
      'SELECT pg_current_wal_insert_lsn()::text AS lsn',
    )
    return parseLsn(rows[0]?.lsn)!
  }

  const forgetCaughtUp = () => {
    const now = Date.now()
    // The position every replica has replayed (null while one of them is unknown).
    let everyoneAt: Lsn | null = null
    for (const [index, replica] of replicas.entries()) {
      if (replica.replayed === null) {
        everyoneAt = null
        break
      }
      if (index === 0 || replica.replayed < everyoneAt!) everyoneAt = replica.replayed
    }
    for (const [caller, mark] of marks) {
      const caughtUp =
        mark.until <= now && (mark.lsn === null || (everyoneAt !== null && everyoneAt >= mark.lsn))
      if (caughtUp) marks.delete(caller)
    }
  }

  let closed = false
  let timer: NodeJS.Timeout | undefined
  const probeRound = async () => {
    try {
      positions.add(Date.now(), await primaryPosition())
    } catch {
      // The primary's position is unknown this round: lags are measured against the older samples.
    }
    await Promise.all(replicas.map(probeReplica))
    forgetCaughtUp()
  }
  const schedule = () => {
    if (closed) return
    timer = setTimeout(() => void probeRound().finally(schedule), interval)
    timer.unref()
  }
  await probeRound()
  schedule()

  return {
    reader,
    statuses: () =>
      replicas.map((replica) => ({
        name: replica.name,
        state: replica.state,
        lagMs: replica.lagMs,
        reads: replica.reads,
        checkedAt: replica.checkedAt?.toISOString() ?? null,
      })),
    markWrite: async (caller) => {
      try {
        const { rows } = await deps.primary.query<{ lsn: string }>(
          `SELECT pg_current_wal_insert_lsn()::text AS lsn,
                  pg_notify($1, $2::text || '|' || pg_current_wal_insert_lsn()::text)`,
          [READ_FLOORS_CHANNEL, caller],
        )
        setMark(caller, { lsn: parseLsn(rows[0]?.lsn), until: 0 })
      } catch {
        // The position is unknown: this process sends the caller's reads to the primary for a while.
        setMark(caller, { lsn: null, until: Date.now() + options.maxLagMs })
      }
    },
    primaryPosition,
    raiseSchemaFloor: async () => {
      schemaFloor = await primaryPosition()
    },
    close: async () => {
      closed = true
      clearTimeout(timer)
      await stopListening()
      await Promise.all(replicas.flatMap((replica) => [replica.pool.end(), replica.probePool.end()]))
    },
  }
}

/** A hot standby cancels a read that conflicts with the WAL it replays; the primary has no such conflict. */
function isRecoveryConflict(error: unknown): boolean {
  const code = (error as { code?: unknown }).code
  return code === '40001' || code === '40P01'
}

/** host:port/database of a URL, without user or password. */
export function nameOf(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`
  } catch {
    return 'replica'
  }
}
