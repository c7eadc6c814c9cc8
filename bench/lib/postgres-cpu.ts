import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * The CPU a benchmark's own databases cost the local PostgreSQL server, read from /proc (Linux,
 * 100 clock ticks a second). Every PostgreSQL process names in its title what it serves:
 *
 *   /usr/lib/postgresql/15/bin/postgres -D /var/lib/postgresql/15/main ...     the postmaster
 *   postgres: 15/main: checkpointer                                            shared by every database
 *   postgres: 15/main: postgres promptfolio_bench 127.0.0.1(49220) idle        a backend: user, database, client
 *   postgres: 15/main: parallel worker for PID 8510                            helping backend 8510
 *
 * Counted: the backends of the given databases, the parallel workers of those backends, and the
 * processes of their server that serve no one database (the postmaster itself, checkpointer,
 * background writer, walwriter, ...). Not counted: other databases' backends (a test run, another
 * benchmark) and other PostgreSQL servers on the machine, unless one of them also has a database
 * of that name (the titles do not say which port a server listens on).
 */

/** One process of a PostgreSQL server as /proc shows it. */
export interface PostgresProcess {
  pid: number
  /** The postmaster for every process but the postmaster itself. */
  ppid: number
  /** Its own CPU time so far (user + system), in ms. */
  cpuMs: number
  /** When it started (clock ticks since boot): a pid used again is another process. */
  startTicks: number
  /** The process title (its command line, NULs read as spaces). */
  title: string
}

export type PostgresRole =
  /** The postmaster (its title is its command line), or a backend forked a moment ago that has not named itself yet. */
  | { role: 'server' }
  | { role: 'backend'; database: string }
  | { role: 'parallel worker'; leader: number }
  /** A process of the server that serves no one database: checkpointer, walwriter, a physical walsender, ... */
  | { role: 'shared'; name: string }

/** `user database host(port)` or `user database [local]`, then what the backend is doing. */
const BACKEND = /^\S+ (\S+) (?:\[local\]|\S+\(\d+\))(?: |$)/

/** What a PostgreSQL process serves, from its title (`update_process_title`, PostgreSQL 13 and later). */
export function postgresRole(title: string): PostgresRole {
  if (!title.startsWith('postgres: ')) return { role: 'server' }
  let rest = title.slice('postgres: '.length)
  // `cluster_name` (Debian sets it to 15/main) comes first, followed by a colon.
  const first = rest.split(' ', 1)[0]!
  if (first.endsWith(':')) rest = rest.slice(first.length + 1)
  const leader = /^parallel worker for PID (\d+)/.exec(rest)
  if (leader) return { role: 'parallel worker', leader: Number(leader[1]) }
  // A walsender names the database only for logical replication: `walsender user [database] host(port)`.
  const backend = BACKEND.exec(rest.startsWith('walsender ') ? rest.slice('walsender '.length) : rest)
  if (backend) return { role: 'backend', database: backend[1]! }
  return { role: 'shared', name: rest.trim() }
}

/** Every process named `postgres` under `proc` (a /proc tree; another root in tests). */
export function postgresProcesses(proc = '/proc'): PostgresProcess[] {
  const found: PostgresProcess[] = []
  for (const name of readdirSync(proc).filter((entry) => /^\d+$/.test(entry))) {
    try {
      if (readFileSync(path.join(proc, name, 'comm'), 'utf8').trim() !== 'postgres') continue
      // The fields after the command's closing parenthesis: state, ppid, ...; utime and stime are
      // the 12th and 13th of them, starttime the 20th.
      const fields = readFileSync(path.join(proc, name, 'stat'), 'utf8')
        .split(') ')[1]!
        .split(' ')
      const title = readFileSync(path.join(proc, name, 'cmdline'), 'utf8')
        .replaceAll('\0', ' ')
        .trim()
      found.push({
        pid: Number(name),
        ppid: Number(fields[1]),
        cpuMs: (Number(fields[11]) + Number(fields[12])) * 10,
        startTicks: Number(fields[19]),
        title,
      })
    } catch {
      // the process ended meanwhile
    }
  }
  return found
}

/**
 * The CPU in ms that the processes serving `databases` (see above) spent from `before` to `after`
 * (two readings of `postgresProcesses`). A process that started in between counts whole; one that
 * exited in between counts nothing of that time: its CPU leaves /proc with it, and the
 * postmaster's sum of its reaped children mixes every database's (a parallel worker that lived
 * within the interval is lost this way).
 */
export function postgresCpuBetween(
  before: PostgresProcess[],
  after: PostgresProcess[],
  databases: Iterable<string>,
): number {
  const ours = new Set(databases)
  const roles = new Map<number, PostgresRole>()
  // The latest title wins: a backend forked just before the first reading names itself later.
  for (const member of [...before, ...after]) roles.set(member.pid, postgresRole(member.title))
  const backends = new Set<number>()
  const servers = new Set<number>()
  for (const member of [...before, ...after]) {
    const role = roles.get(member.pid)!
    if (role.role === 'backend' && ours.has(role.database)) {
      backends.add(member.pid)
      servers.add(member.ppid)
    }
  }
  const counted = (member: PostgresProcess): boolean => {
    const role = roles.get(member.pid)!
    if (role.role === 'server') return servers.has(member.pid)
    if (!servers.has(member.ppid)) return false
    if (role.role === 'backend') return backends.has(member.pid)
    if (role.role === 'parallel worker') return backends.has(role.leader)
    return true
  }
  const start = new Map(before.map((member) => [member.pid, member]))
  let total = 0
  for (const member of after.filter(counted)) {
    const earlier = start.get(member.pid)
    total += member.cpuMs - (earlier?.startTicks === member.startTicks ? earlier.cpuMs : 0)
  }
  return total
}

/** Starts counting the CPU that PostgreSQL spends on `databases` (names); the answer reads the ms since. */
export function postgresCpuSince(databases: string[], proc = '/proc'): () => number {
  const before = postgresProcesses(proc)
  return () => postgresCpuBetween(before, postgresProcesses(proc), databases)
}
