import { ScopedAsyncLocalStorage } from '../scoped-context.ts'

/**
 * Which database a read that tolerates a replica's lag is sent to (decision 0260): the pure rules,
 * and the request's scope that the rules read. The pools and probes are in replicas.ts.
 */

/** A position in the primary's write-ahead log (`pg_lsn`, `X/Y` in hex) as a number. */
export type Lsn = bigint

export function parseLsn(text: string | null | undefined): Lsn | null {
  if (!text) return null
  const match = /^([0-9A-F]+)\/([0-9A-F]+)$/i.exec(text.trim())
  if (!match) return null
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`)
}

export function formatLsn(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`
}

/**
 * `ok`: serves reads. `lagging`: behind the primary by more than the bound. `down`: does not
 * answer. `starting`: not probed yet. `not_replica`: answers but is not in recovery (a URL that
 * points at a primary), so its data cannot be trusted to follow this primary.
 */
export type ReplicaState = 'starting' | 'ok' | 'lagging' | 'down' | 'not_replica'

/** What the routing knows of one replica. */
export interface ReplicaView {
  state: ReplicaState
  /** The last replay position it answered (only ever grows while it runs). */
  replayed: Lsn | null
}

/**
 * What a read needs: `primary` (a write request, a read inside a write, a position not known yet),
 * or a replica that has replayed at least `floor` (the caller's last write, the notification a
 * cache fill must be newer than); no floor: any healthy replica.
 */
export type ReadNeed = { primary: true } | { primary: false; floor: Lsn | null }

/**
 * The replica to read from, or -1 for the primary: the first healthy one, starting at `start`
 * (round robin), that has replayed the floor. A replica whose replay position is unknown only
 * serves reads with no floor.
 */
export function chooseReplica(replicas: readonly ReplicaView[], need: ReadNeed, start: number): number {
  if (need.primary || replicas.length === 0) return -1
  for (let step = 0; step < replicas.length; step++) {
    const index = (start + step) % replicas.length
    const replica = replicas[index]!
    if (replica.state !== 'ok') continue
    if (need.floor !== null && (replica.replayed === null || replica.replayed < need.floor)) continue
    return index
  }
  return -1
}

/**
 * The primary's write position over the last while, sampled by the probe, to tell how far behind a
 * replica is in time. `now() - pg_last_xact_replay_timestamp()` grows while the primary is idle
 * although nothing is missing; comparing positions does not: a replica that has replayed what the
 * primary had written is not behind, however long ago that was.
 */
export class PrimaryPositions {
  private readonly samples: { at: number; lsn: Lsn }[] = []

  constructor(private readonly keepMs: number) {}

  add(at: number, lsn: Lsn): void {
    this.samples.push({ at, lsn })
    while (this.samples.length > 1 && this.samples[0]!.at < at - this.keepMs) this.samples.shift()
  }

  /**
   * How long the replica has missed data: the time since the primary first wrote past `replayed`
   * (0 when it has replayed the newest position seen). With no sample at or below `replayed`, the
   * whole span kept (at least), so that a replica far behind reads as lagging.
   */
  lagMs(replayed: Lsn, now: number): number | null {
    const newest = this.samples.at(-1)
    if (!newest) return null
    if (replayed >= newest.lsn) return 0
    const firstAhead = this.samples.find((sample) => sample.lsn > replayed)!
    if (firstAhead === this.samples[0] && this.samples.length > 0) {
      return Math.max(now - firstAhead.at, this.keepMs)
    }
    return Math.max(0, now - firstAhead.at)
  }
}

/** The state a probe's answer puts a replica in. */
export function stateOfProbe(
  probe: { inRecovery: boolean; lagMs: number | null } | 'failed',
  maxLagMs: number,
): ReplicaState {
  if (probe === 'failed') return 'down'
  if (!probe.inRecovery) return 'not_replica'
  if (probe.lagMs === null || probe.lagMs > maxLagMs) return 'lagging'
  return 'ok'
}

/**
 * The request's scope: who is asking (the hash of its session or key, for read-your-own-writes),
 * whether its reads must stay on the primary, and a floor a cache fill sets.
 */
export interface ReadScope {
  caller: string | null
  primary: boolean
  floor: Lsn | 'primary' | null
}

// Scoped: on Node 20 an enabled storage makes every promise of the process pay for hooks
// (decision 0217); this one is enabled only while a request that uses it is in flight, and only
// installations with replicas make such requests.
const scopes = new ScopedAsyncLocalStorage<ReadScope>()

export function inReadScope<T>(scope: ReadScope, fn: () => Promise<T>): Promise<T> {
  return scopes.run(scope, fn)
}

export function currentReadScope(): ReadScope | undefined {
  return scopes.getStore()
}

/**
 * Runs `fn` with its reads served only from a source that has replayed `floor` ('primary': from the
 * primary). Outside a request scope (and so without replicas), `fn` runs as it is.
 */
export function atLeast<T>(floor: Lsn | 'primary' | null, fn: () => Promise<T>): Promise<T> {
  const scope = scopes.getStore()
  if (!scope || floor === null) return fn()
  return scopes.run({ ...scope, floor: higherFloor(scope.floor, floor) }, fn)
}

export function higherFloor(a: Lsn | 'primary' | null, b: Lsn | 'primary' | null): Lsn | 'primary' | null {
  if (a === 'primary' || b === 'primary') return 'primary'
  if (a === null) return b
  if (b === null) return a
  return a > b ? a : b
}
