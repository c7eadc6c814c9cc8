import { type SQL, sql } from 'drizzle-orm'
import { lastUtcDays, PULSE_LONG_WINDOW_DAYS, STREAK_LOOKBACK_DAYS } from '../../domain/dashboard.ts'
import type { Db } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'
import type { Logger } from '../log.ts'

/** How often every process prunes (and once shortly after it starts). */
export const PRUNE_INTERVAL_MS = 60 * 60 * 1000
/** Rate-limit counters untouched this long are dropped: longer than the longest window (a day). */
export const RATE_LIMIT_RETENTION_HOURS = 48
/** Mail that went out (sent, or printed to the log) and mail that finally failed is kept this long. */
export const MAIL_RETENTION_DAYS = 30
/**
 * Webhook deliveries that finished (succeeded, or failed for good) are kept this long for the
 * delivery log, their attempts with them; pending ones stay.
 */
export const WEBHOOK_DELIVERY_RETENTION_DAYS = 30
/**
 * The dashboard's per-day counts are kept for the days its longest window reaches, and one more:
 * a dashboard asked for just before midnight may still read it.
 */
export const DASHBOARD_DAYS_KEPT = PULSE_LONG_WINDOW_DAYS + 1
/** Rows deleted per statement: short statements and short row locks, whatever the backlog. */
const BATCH_SIZE = 1000
/** Batches per table and run: a huge backlog is worked off over several runs, never in one go. */
const MAX_BATCHES = 50

interface PruneTarget {
  table: string
  /** The column that names a row (for the batch's lock). */
  key: string
  /** Which rows are due for deletion. */
  due: SQL
}

/**
 * What is pruned, and when: sign-in sessions and password-recovery sessions once expired, the auth
 * library's one-time values once expired, rate-limit counters after RATE_LIMIT_RETENTION_HOURS
 * without a request, the outbox's finished mail after MAIL_RETENTION_DAYS (pending mail stays), and
 * finished webhook deliveries (their attempts go with them) after WEBHOOK_DELIVERY_RETENTION_DAYS.
 * `pruneOnce` also folds the dashboard's count rows (totals, days and the prompts' uses).
 */
function targets(): PruneTarget[] {
  const rateLimitCutoff = Date.now() - RATE_LIMIT_RETENTION_HOURS * 3_600_000
  return [
    { table: 'sessions', key: 'id', due: sql`expires_at < now()` },
    { table: 'recovery_sessions', key: 'token_hash', due: sql`expires_at < now()` },
    { table: 'verifications', key: 'id', due: sql`expires_at < now()` },
    { table: 'rate_limits', key: 'key', due: sql`last_request < ${rateLimitCutoff}` },
    {
      table: 'mail_outbox',
      key: 'id',
      due: sql`status IN ('sent', 'logged', 'failed')
        AND coalesce(sent_at, created_at) < now() - make_interval(days => ${MAIL_RETENTION_DAYS})`,
    },
    {
      table: 'webhook_deliveries',
      key: 'id',
      due: sql`status IN ('succeeded', 'failed')
        AND coalesce(finished_at, created_at) < now() - make_interval(days => ${WEBHOOK_DELIVERY_RETENTION_DAYS})`,
    },
  ]
}

/**
 * One batch: the rows are locked with SKIP LOCKED, so processes pruning at the same moment take
 * different rows and never wait for each other, and a row in use (a counter being counted) is
 * left for the next run. The condition is checked again on the locked row, so a row that was
 * renewed meanwhile (a session extended) stays.
 */
async function pruneBatch(db: Db, target: PruneTarget): Promise<number> {
  const table = sql.identifier(target.table)
  const key = sql.identifier(target.key)
  const rows = await queryRows<{ n: number | string }>(
    db,
    sql`WITH gone AS (
          DELETE FROM ${table} WHERE ${key} IN (
            SELECT ${key} FROM ${table} WHERE ${target.due} LIMIT ${BATCH_SIZE} FOR UPDATE SKIP LOCKED)
          AND ${target.due}
          RETURNING 1)
        SELECT count(*) AS n FROM gone`,
  )
  return Number(rows[0]?.n ?? 0)
}

/** One run over every table; answers how many rows each lost. Safe on every process at once. */
export async function pruneOnce(db: Db): Promise<Record<string, number>> {
  const pruned: Record<string, number> = {}
  // The dashboard's counts are rows of changes (decision 0258); folding keeps one per person and space.
  const [folded] = await queryRows<{ n: number }>(db, sql`SELECT dashboard_counts_fold() AS n`)
  pruned.dashboard_counts = Number(folded?.n ?? 0)
  // The per-day counts (decision 0268) the same way; days no dashboard window reaches are kept only
  // per person, for the streak (decision 0272), and only as far back as it looks.
  const [foldedDays] = await queryRows<{ n: number }>(
    db,
    sql`SELECT dashboard_days_fold(${lastUtcDays(DASHBOARD_DAYS_KEPT)[0]!}::date,
      ${lastUtcDays(STREAK_LOOKBACK_DAYS)[0]!}::date) AS n`,
  )
  pruned.dashboard_days = Number(foldedDays?.n ?? 0)
  // The prompts' uses (decision 0276) too: one row per prompt, none for a prompt no longer used.
  const [foldedUses] = await queryRows<{ n: number }>(db, sql`SELECT dashboard_uses_fold() AS n`)
  pruned.dashboard_uses = Number(foldedUses?.n ?? 0)
  for (const target of targets()) {
    let total = 0
    for (let batch = 0; batch < MAX_BATCHES; batch++) {
      const n = await pruneBatch(db, target)
      total += n
      if (n < BATCH_SIZE) break
    }
    pruned[target.table] = total
  }
  return pruned
}

export interface PruneJob {
  start(): void
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>
}

/** Runs `pruneOnce` every PRUNE_INTERVAL_MS on this process (every process runs one). */
export function createPruneJob(deps: { db: Db; log: Logger; intervalMs?: number }): PruneJob {
  const { db, log, intervalMs = PRUNE_INTERVAL_MS } = deps
  let timer: NodeJS.Timeout | undefined
  let first: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  const run = () => {
    running ??= pruneOnce(db)
      .then((pruned) => {
        if (Object.values(pruned).some((n) => n > 0)) log.info('pruned expired rows', { pruned })
      })
      .catch((error) => log.error('pruning failed', { err: error }))
      .finally(() => {
        running = undefined
      })
  }
  return {
    start() {
      // Not at the very start: processes starting together need their first moments for requests.
      first = setTimeout(run, Math.min(intervalMs, 60_000))
      first.unref()
      timer = setInterval(run, intervalMs)
      timer.unref()
    },
    async stop() {
      clearTimeout(first)
      clearInterval(timer)
      await running
    },
  }
}
