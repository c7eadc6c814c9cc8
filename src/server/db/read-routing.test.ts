import { describe, expect, it } from 'vitest'
import {
  atLeast,
  chooseReplica,
  currentReadScope,
  formatLsn,
  higherFloor,
  inReadScope,
  PrimaryPositions,
  parseLsn,
  type ReplicaView,
  stateOfProbe,
} from './read-routing.ts'
import { callerOf, nameOf } from './replicas.ts'

const ok = (replayed: bigint | null): ReplicaView => ({ state: 'ok', replayed })

describe('parseLsn', () => {
  it('reads pg_lsn text and orders positions as PostgreSQL does', () => {
    expect(parseLsn('0/3000148')).toBe(0x3000148n)
    expect(parseLsn('1/0')).toBe(1n << 32n)
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).toBe(true)
    expect(formatLsn(parseLsn('16/B374D848')!)).toBe('16/B374D848')
  })

  it('answers null for no position (a primary asked for its replay position) or garbage', () => {
    expect(parseLsn(null)).toBeNull()
    expect(parseLsn('')).toBeNull()
    expect(parseLsn('x/y')).toBeNull()
  })
})

describe('chooseReplica', () => {
  it('sends reads to the primary without replicas, or when the read must be on the primary', () => {
    expect(chooseReplica([], { primary: false, floor: null }, 0)).toBe(-1)
    expect(chooseReplica([ok(10n)], { primary: true }, 0)).toBe(-1)
  })

  it('takes healthy replicas in turn', () => {
    const replicas = [ok(10n), ok(10n)]
    expect(chooseReplica(replicas, { primary: false, floor: null }, 0)).toBe(0)
    expect(chooseReplica(replicas, { primary: false, floor: null }, 1)).toBe(1)
    expect(chooseReplica(replicas, { primary: false, floor: null }, 2)).toBe(0)
  })

  it('skips replicas that lag, are down, are starting or are not replicas', () => {
    for (const state of ['lagging', 'down', 'starting', 'not_replica'] as const) {
      expect(chooseReplica([{ state, replayed: 10n }], { primary: false, floor: null }, 0)).toBe(-1)
      expect(chooseReplica([{ state, replayed: 10n }, ok(10n)], { primary: false, floor: null }, 0)).toBe(1)
    }
  })

  it('serves a floor (a caller’s last write) only from a replica that has replayed it', () => {
    const replicas = [ok(5n), ok(20n)]
    expect(chooseReplica(replicas, { primary: false, floor: 10n }, 0)).toBe(1)
    expect(chooseReplica(replicas, { primary: false, floor: 20n }, 0)).toBe(1)
    expect(chooseReplica(replicas, { primary: false, floor: 21n }, 0)).toBe(-1)
    expect(chooseReplica([ok(null)], { primary: false, floor: 1n }, 0)).toBe(-1)
  })
})

describe('PrimaryPositions', () => {
  it('reads a replica that has replayed the newest position as not behind, however idle the primary', () => {
    const positions = new PrimaryPositions(10_000)
    positions.add(0, 100n)
    expect(positions.lagMs(100n, 60_000)).toBe(0)
  })

  it('measures how long the replica has missed data: since the primary first wrote past it', () => {
    const positions = new PrimaryPositions(10_000)
    positions.add(1_000, 100n)
    positions.add(2_000, 200n)
    positions.add(3_000, 300n)
    expect(positions.lagMs(150n, 3_500)).toBe(1_500)
    expect(positions.lagMs(250n, 3_500)).toBe(500)
  })

  it('reads a replica behind everything it remembers as at least the span it keeps', () => {
    const positions = new PrimaryPositions(10_000)
    positions.add(1_000, 100n)
    positions.add(2_000, 200n)
    expect(positions.lagMs(50n, 2_000)).toBe(10_000)
    expect(new PrimaryPositions(10_000).lagMs(50n, 0)).toBeNull()
  })
})

describe('stateOfProbe', () => {
  it('puts a replica in service only when it answers, is in recovery and is within the bound', () => {
    expect(stateOfProbe('failed', 5_000)).toBe('down')
    expect(stateOfProbe({ inRecovery: false, lagMs: 0 }, 5_000)).toBe('not_replica')
    expect(stateOfProbe({ inRecovery: true, lagMs: 5_001 }, 5_000)).toBe('lagging')
    expect(stateOfProbe({ inRecovery: true, lagMs: null }, 5_000)).toBe('lagging')
    expect(stateOfProbe({ inRecovery: true, lagMs: 5_000 }, 5_000)).toBe('ok')
  })
})

describe('read scope', () => {
  it('raises the floor inside atLeast and only there; the primary outranks any position', async () => {
    expect(higherFloor(null, 3n)).toBe(3n)
    expect(higherFloor(4n, 3n)).toBe(4n)
    expect(higherFloor(4n, 'primary')).toBe('primary')
    await inReadScope({ caller: 'c', primary: false, floor: 2n }, async () => {
      await atLeast(7n, async () => expect(currentReadScope()?.floor).toBe(7n))
      await atLeast(1n, async () => expect(currentReadScope()?.floor).toBe(2n))
      await atLeast('primary', async () => expect(currentReadScope()?.floor).toBe('primary'))
      expect(currentReadScope()?.floor).toBe(2n)
    })
    expect(currentReadScope()).toBeUndefined()
    // Outside a request (no replicas), atLeast only runs the function.
    expect(await atLeast(7n, async () => 'ran')).toBe('ran')
  })
})

describe('callerOf and nameOf', () => {
  it('names a caller by its key or session without carrying the secret', () => {
    const byKey = callerOf(new Headers({ authorization: 'Bearer sk-secret' }))
    const bySession = callerOf(new Headers({ cookie: 'a=1; promptfolio.session_token=tok.sig; b=2' }))
    expect(byKey).toMatch(/^[\w-]{22}$/)
    expect(byKey).not.toContain('secret')
    expect(bySession).not.toBe(byKey)
    expect(callerOf(new Headers({ cookie: 'promptfolio.session_token=tok.sig' }))).toBe(bySession)
    expect(callerOf(new Headers({ cookie: 'theme=dark' }))).toBeNull()
  })

  it('shows a replica by host, port and database, never its password', () => {
    expect(nameOf('postgres://app:s3cret@db-replica-1:6432/promptfolio')).toBe(
      'db-replica-1:6432/promptfolio',
    )
    expect(nameOf('postgres://app:s3cret@db-replica-2/promptfolio')).toBe('db-replica-2:5432/promptfolio')
  })
})
