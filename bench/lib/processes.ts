import type { ChildProcess } from 'node:child_process'
import { once } from 'node:events'

/**
 * The processes a benchmark started (servers, bare floors), so that none outlives it: each holds
 * PostgreSQL connections, and one left running by a benchmark that failed would take them from the
 * next (`npm run bench` runs them in a row) or from whatever runs after this process.
 */
const running = new Set<ChildProcess>()

/** Keeps `child` until it exits; `stopTrackedProcesses` (or this process's exit) stops it. */
export function trackProcess(child: ChildProcess): void {
  if (exited(child)) return
  running.add(child)
  child.once('exit', () => running.delete(child))
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

/** SIGTERM to every tracked process still running (SIGKILL after `graceMs`), then their exit; answers how many there were. */
export async function stopTrackedProcesses(graceMs = 10_000): Promise<number> {
  const left = [...running].filter((child) => !exited(child))
  await Promise.all(
    left.map(async (child) => {
      const gone = once(child, 'exit')
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs)
      await gone
      clearTimeout(timer)
    }),
  )
  return left.length
}

// This process ending without having stopped them (an uncaught error, process.exit): they get
// SIGTERM, as the benchmarks' own stop sends (the server closes its database on it).
process.once('exit', () => {
  for (const child of running) if (!exited(child)) child.kill('SIGTERM')
})
