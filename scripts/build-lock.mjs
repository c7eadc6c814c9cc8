// One build at a time in this folder. Two `npm start` at the same moment (two app processes on one
// machine) would otherwise both rebuild, the second deleting the bundle the first is starting from;
// with the lock the second waits, then finds the build fresh and starts it as it is.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const POLL_MS = 200

/** Whether the process that holds the lock still runs (a build killed midway leaves its lock behind). */
function holderRuns(lockDir) {
  let pid
  try {
    pid = Number(readFileSync(path.join(lockDir, 'pid'), 'utf8'))
  } catch (error) {
    // Gone meanwhile: try again.
    if (error.code === 'ENOENT') return false
    throw error
  }
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/** Takes the lock if it is free: a folder holding our pid, renamed into place in one step. */
function tryTake(lockDir) {
  const mine = `${lockDir}.${process.pid}.${Date.now()}`
  mkdirSync(mine, { recursive: true })
  writeFileSync(path.join(mine, 'pid'), String(process.pid))
  try {
    renameSync(mine, lockDir)
    return true
  } catch (error) {
    rmSync(mine, { recursive: true, force: true })
    if (error.code === 'ENOTEMPTY' || error.code === 'EEXIST') return false
    throw error
  }
}

/**
 * Runs `fn` while holding the lock folder `lockDir`, waiting (and calling `onWait` once) while
 * another running process holds it; the lock of a process that no longer runs is taken over.
 */
export async function withBuildLock(lockDir, fn, { onWait } = {}) {
  mkdirSync(path.dirname(lockDir), { recursive: true })
  let waited = false
  while (!tryTake(lockDir)) {
    if (!holderRuns(lockDir)) {
      rmSync(lockDir, { recursive: true, force: true })
      continue
    }
    if (!waited) onWait?.()
    waited = true
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
  }
  try {
    return await fn()
  } finally {
    rmSync(lockDir, { recursive: true, force: true })
  }
}
