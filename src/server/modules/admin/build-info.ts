import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

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
