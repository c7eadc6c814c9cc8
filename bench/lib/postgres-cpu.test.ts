import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  type PostgresProcess,
  postgresCpuBetween,
  postgresCpuSince,
  postgresProcesses,
  postgresRole,
} from './postgres-cpu.ts'

/** Titles as `ps` showed them on a Debian PostgreSQL 15 (cluster_name 15/main). */
const POSTMASTER =
  '/usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main -c config_file=/etc/postgresql/15/main/postgresql.conf'
const title = (rest: string) => `postgres: 15/main: ${rest}`

describe('postgresRole', () => {
  it('reads the database of a backend, with or without a cluster name, over TCP, IPv6 or a socket', () => {
    expect(postgresRole(title('postgres promptfolio_bench 127.0.0.1(49220) idle'))).toEqual({
      role: 'backend',
      database: 'promptfolio_bench',
    })
    expect(postgresRole(title('postgres test 127.0.0.1(51186) SELECT'))).toEqual({
      role: 'backend',
      database: 'test',
    })
    expect(postgresRole(title('bench promptfolio_bench_craft ::1(40112) idle in transaction'))).toEqual({
      role: 'backend',
      database: 'promptfolio_bench_craft',
    })
    expect(postgresRole(title('postgres promptfolio_bench [local] COPY'))).toEqual({
      role: 'backend',
      database: 'promptfolio_bench',
    })
    // No cluster_name set: the title has no second prefix.
    expect(postgresRole('postgres: postgres promptfolio_bench 127.0.0.1(49226) idle')).toEqual({
      role: 'backend',
      database: 'promptfolio_bench',
    })
  })

  it('tells the shared processes, the parallel workers and the postmaster from the backends', () => {
    for (const name of [
      'checkpointer',
      'background writer',
      'walwriter',
      'autovacuum launcher',
      'logical replication launcher',
      'archiver last was 00000001000000000000000A',
      'walreceiver streaming 0/3000148',
    ]) {
      expect(postgresRole(title(name))).toEqual({ role: 'shared', name })
    }
    expect(postgresRole(title('parallel worker for PID 8510'))).toEqual({
      role: 'parallel worker',
      leader: 8510,
    })
    expect(postgresRole(POSTMASTER)).toEqual({ role: 'server' })
  })

  it('reads a database only from a logical walsender', () => {
    expect(postgresRole(title('walsender replicator 127.0.0.1(40210) streaming 0/3000148'))).toEqual({
      role: 'shared',
      name: 'walsender replicator 127.0.0.1(40210) streaming 0/3000148',
    })
    expect(postgresRole(title('walsender replicator promptfolio 127.0.0.1(40212) idle'))).toEqual({
      role: 'backend',
      database: 'promptfolio',
    })
  })
})

/** A process of the fixtures: what /proc/<pid>/stat, comm and cmdline say about it. */
interface Fixture {
  pid: number
  ppid: number
  /** utime and stime in clock ticks (10 ms each). */
  ticks: [number, number]
  startTicks?: number
  comm?: string
  title: string
}

/** A /proc line as the kernel writes it: pid (comm) state ppid ... utime stime cutime cstime ... starttime ... */
function statLine({ pid, ppid, ticks, startTicks = 4515, comm = 'postgres' }: Fixture): string {
  return `${pid} (${comm}) S ${ppid} ${pid} ${pid} 0 -1 4194368 535 0 0 0 ${ticks[0]} ${ticks[1]} 244 184 20 0 1 0 ${startTicks} 222740480 5830 18446744073709551615 94735948320768 94735953777113 140737036946992 0 0 0 4194304 24145920 536873479 1 0 0 17 0 0 0 0 0 0 94735956256848 94735956474570 94736570658816 140737036955294 140737036955416 140737036955416 140737036955604 0\n`
}

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** A /proc tree of `fixtures` (titles padded with NULs, as PostgreSQL leaves its argv area). */
function procTree(fixtures: Fixture[]): string {
  const root = mkdtempSync(path.join(tmpdir(), 'promptfolio-proc-'))
  roots.push(root)
  write(root, fixtures)
  mkdirSync(path.join(root, 'self'))
  writeFileSync(path.join(root, 'uptime'), '1234.56 2345.67\n')
  return root
}

function write(root: string, fixtures: Fixture[]) {
  for (const fixture of fixtures) {
    const dir = path.join(root, String(fixture.pid))
    mkdirSync(dir, { recursive: true })
    writeFileSync(path.join(dir, 'comm'), `${fixture.comm ?? 'postgres'}\n`)
    writeFileSync(path.join(dir, 'stat'), statLine(fixture))
    const cmdline = fixture.title.startsWith('postgres: ')
      ? `${fixture.title} ${'\0'.repeat(80)}`
      : `${fixture.title.replaceAll(' ', '\0')}\0`
    writeFileSync(path.join(dir, 'cmdline'), cmdline)
  }
}

const postmaster: Fixture = { pid: 2201, ppid: 1, ticks: [7, 11], title: POSTMASTER }
const shared: Fixture[] = [
  { pid: 2202, ppid: 2201, ticks: [6, 12], title: title('checkpointer') },
  { pid: 2203, ppid: 2201, ticks: [2, 0], title: title('background writer') },
  { pid: 2205, ppid: 2201, ticks: [3, 1], title: title('walwriter') },
]
/** A second PostgreSQL server on the machine (a test cluster of its own). */
const otherServer: Fixture[] = [
  { pid: 3101, ppid: 1, ticks: [5, 5], title: '/usr/lib/postgresql/15/bin/postgres -D /tmp/pg-primary-x' },
  { pid: 3102, ppid: 3101, ticks: [1, 1], title: 'postgres: checkpointer' },
  {
    pid: 3110,
    ppid: 3101,
    ticks: [50, 10],
    title: 'postgres: postgres promptfolio_bench_replicas 127.0.0.1(5601) idle',
  },
]

describe('postgresProcesses', () => {
  it('reads every postgres process of a /proc tree: parent, own CPU, start and title', () => {
    const root = procTree([
      postmaster,
      ...shared,
      {
        pid: 8510,
        ppid: 2201,
        ticks: [120, 30],
        title: title('postgres promptfolio_bench 127.0.0.1(49220) idle'),
      },
      {
        pid: 8625,
        ppid: 8624,
        ticks: [900, 80],
        comm: 'node',
        title: 'node /work/node_modules/.bin/vitest run',
      },
    ])
    // A process that ended between listing the directory and reading it.
    mkdirSync(path.join(root, '9999'))
    const found = postgresProcesses(root).sort((a, b) => a.pid - b.pid)
    expect(found.map((p) => p.pid)).toEqual([2201, 2202, 2203, 2205, 8510])
    expect(found[0]).toEqual({ pid: 2201, ppid: 1, cpuMs: 180, startTicks: 4515, title: POSTMASTER })
    expect(found.at(-1)).toEqual({
      pid: 8510,
      ppid: 2201,
      cpuMs: 1500,
      startTicks: 4515,
      title: 'postgres: 15/main: postgres promptfolio_bench 127.0.0.1(49220) idle',
    })
  })
})

describe('postgresCpuBetween', () => {
  const ours = (pid: number, ticks: [number, number], database = 'promptfolio_bench'): Fixture => ({
    pid,
    ppid: 2201,
    ticks,
    title: title(`postgres ${database} 127.0.0.1(${40000 + pid}) idle`),
  })

  it("counts its databases' backends, their parallel workers and their server's shared processes", () => {
    const root = procTree([
      postmaster,
      ...shared,
      ours(8510, [100, 20]),
      ours(8511, [10, 0], 'promptfolio_bench_conversations'),
      ours(8600, [400, 100], 'test'),
      ...otherServer,
    ])
    const since = postgresCpuSince(['promptfolio_bench', 'promptfolio_bench_conversations'], root)
    write(root, [
      // The postmaster forked (+2 ticks), the checkpointer and walwriter worked (+3, +1).
      { ...postmaster, ticks: [9, 11] },
      { ...shared[0]!, ticks: [8, 13] },
      shared[1]!,
      { ...shared[2]!, ticks: [3, 2] },
      ours(8510, [150, 30]), // +60 ticks
      ours(8511, [14, 1]), // +5
      { pid: 8700, ppid: 2201, ticks: [7, 1], title: title('parallel worker for PID 8510') }, // new: +8
      ours(8720, [20, 2]), // a backend opened meanwhile: +22
      // Another database's backend and its parallel worker: not ours.
      ours(8600, [900, 300], 'test'),
      { pid: 8701, ppid: 2201, ticks: [40, 2], title: title('parallel worker for PID 8600') },
      ours(8721, [30, 3], 'test'),
      // The other server: not ours either.
      { ...otherServer[0]!, ticks: [50, 50] },
      { ...otherServer[1]!, ticks: [10, 10] },
      { ...otherServer[2]!, ticks: [500, 100] },
    ])
    expect(since()).toBe((2 + 3 + 1 + 60 + 5 + 8 + 22) * 10)
  })

  it('leaves out a process gone meanwhile and counts a pid used again from its start', () => {
    const backend = (pid: number, ticks: [number, number], startTicks: number, database: string) =>
      ({
        pid,
        ppid: 2201,
        cpuMs: (ticks[0] + ticks[1]) * 10,
        startTicks,
        title: title(`postgres ${database} 127.0.0.1(5${pid}) idle`),
      }) satisfies PostgresProcess
    const before = [backend(8510, [100, 0], 5000, 'promptfolio_bench'), backend(8511, [300, 0], 5000, 'test')]
    // 8511 ended; its pid now belongs to a new backend of ours with 4 ticks so far.
    const after = [
      backend(8510, [101, 0], 5000, 'promptfolio_bench'),
      backend(8511, [4, 0], 6000, 'promptfolio_bench'),
    ]
    expect(postgresCpuBetween(before, after, ['promptfolio_bench'])).toBe(50)
    // Without a backend of its databases there is nothing of theirs to count, shared processes included.
    expect(
      postgresCpuBetween(
        [{ pid: 2202, ppid: 2201, cpuMs: 100, startTicks: 4515, title: title('checkpointer') }],
        [{ pid: 2202, ppid: 2201, cpuMs: 900, startTicks: 4515, title: title('checkpointer') }],
        ['promptfolio_bench'],
      ),
    ).toBe(0)
  })
})
