import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFlags } from '../../../../scripts/start-flags.mjs'

const startedAt = new Date(Date.now() - process.uptime() * 1000)
let commit: string | null | undefined

/**
 * The commit this server was built from: APP_COMMIT (or GIT_COMMIT / SOURCE_COMMIT, as CI systems
 * set), else what git says in the app's folder, else unknown (null). Asked once.
 */
export function appCommit(): string | null {
  if (commit !== undefined) return commit
  const fromEnv = process.env.APP_COMMIT ?? process.env.GIT_COMMIT ?? process.env.SOURCE_COMMIT
  if (fromEnv) {
    commit = fromEnv.trim().slice(0, 40) || null
    return commit
  }
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: fileURLToPath(new URL('.', import.meta.url)),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 2000,
    }).trim()
  } catch {
    commit = null
  }
  return commit || null
}

/** When this process started, and for how long it has run. */
export function processUptime() {
  return { startedAt: startedAt.toISOString(), uptimeSeconds: Math.round(process.uptime()) }
}

/**
 * The Node flags of the app's start script (package.json, decisions 0280 and 0285), and those of them
 * this process was started without, on its command line or in NODE_OPTIONS; null when the app's
 * package.json cannot be read. A server started without them may spend up to twice the CPU on
 * every request.
 */
export function startFlagsOfProcess(): { flags: string[]; missing: string[] } | null {
  let dir = fileURLToPath(new URL('.', import.meta.url))
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
  let flags: string[]
  try {
    flags = startFlags(dir)
  } catch {
    return null
  }
  const given = new Set([...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)])
  return { flags, missing: flags.filter((flag) => !given.has(flag)) }
}
