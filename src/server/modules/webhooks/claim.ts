import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'

/** A claimed delivery is due again after this long if its process died while sending it. */
const LEASE_SECONDS = 60
/**
 * Candidates looked at beyond the ones wanted: rows another process has just locked are skipped,
 * and the next in turn are taken instead of none.
 */
const SPARE_CANDIDATES = 64

export interface ClaimedDelivery extends Record<string, unknown> {
  id: string
  endpoint_id: string
  event_id: string
  payload: string
  attempts: number
  url: string
  secret: string
  previous_secret: string | null
  /** The endpoint's space: its team's id, or its owner's user id. */
  space: string
}

/**
 * Claims up to `limit` due deliveries, taking turns between spaces: each space's due rows are
 * numbered oldest first, and the claim takes every space's first row before any space's second, so
 * a space with thousands of queued deliveries cannot push another space's single one back. A space
 * that already has `busy[space]` deliveries in flight (in this process) starts its count there, and
 * none gets more than `perSpace` in flight: slots stay free for the other spaces.
 *
 * Rows are locked with FOR UPDATE SKIP LOCKED and leased (attempt counted, due again after
 * LEASE_SECONDS), so any number of processes can claim side by side and each attempt is made once.
 */
export async function claimDeliveries(
  db: Db,
  options: { limit: number; perSpace: number; busy: ReadonlyMap<string, number> },
): Promise<ClaimedDelivery[]> {
  if (options.limit <= 0) return []
  const busy = JSON.stringify(Object.fromEntries(options.busy))
  return queryRows<ClaimedDelivery>(
    db,
    sql`WITH ranked AS (
          SELECT q.id, q.next_attempt_at,
            row_number() OVER (PARTITION BY s.space ORDER BY q.next_attempt_at, q.id)
              + coalesce(b.n::int, 0) AS turn
          FROM webhook_deliveries q
          JOIN webhook_endpoints qe ON qe.id = q.endpoint_id
          CROSS JOIN LATERAL (SELECT coalesce(qe.team_id::text, qe.owner_user_id) AS space) s
          LEFT JOIN jsonb_each_text(${busy}::jsonb) AS b(space, n) ON b.space = s.space
          WHERE q.status = 'pending' AND q.next_attempt_at <= now() AND qe.enabled
        ),
        candidates AS (
          SELECT id, turn, next_attempt_at FROM ranked WHERE turn <= ${options.perSpace}
          ORDER BY turn, next_attempt_at, id
          LIMIT ${options.limit + SPARE_CANDIDATES}
        ),
        claimed AS (
          -- Checked again on the locked row: one another process claimed meanwhile is no longer due.
          SELECT q.id FROM webhook_deliveries q JOIN candidates c ON c.id = q.id
          WHERE q.status = 'pending' AND q.next_attempt_at <= now()
          ORDER BY c.turn, c.next_attempt_at, c.id
          LIMIT ${options.limit}
          FOR UPDATE OF q SKIP LOCKED
        )
        UPDATE webhook_deliveries d
        SET attempts = d.attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_SECONDS})
        FROM webhook_endpoints e
        WHERE e.id = d.endpoint_id AND d.id IN (SELECT id FROM claimed)
        RETURNING d.id, d.endpoint_id, d.event_id, d.payload, d.attempts, e.url, e.secret,
          CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret,
          coalesce(e.team_id::text, e.owner_user_id) AS space`,
  )
}
