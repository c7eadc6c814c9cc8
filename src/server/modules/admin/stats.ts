import { sql } from 'drizzle-orm'
import {
  acquisitionOf,
  SYSTEM_STATS_WINDOW_DAYS,
  SYSTEM_STATS_WINDOW_HOURS,
  type SystemStats,
} from '../../../domain/admin.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'

const HOUR_MS = 60 * 60 * 1000

/**
 * The admin dashboard's figures, counted now. Active = signed in (a session begun or used) or wrote
 * anything (a prompt, a version, a conversation, a message) within the last 720 hours.
 */
export async function getSystemStats(db: Db, now = new Date()): Promise<SystemStats> {
  const since = new Date(now.getTime() - SYSTEM_STATS_WINDOW_HOURS * HOUR_MS).toISOString()
  const firstDay = new Date(
    Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (SYSTEM_STATS_WINDOW_DAYS - 1)),
  ).toISOString()
  const [totals] = await queryRows<{
    users: number | string
    teams: number | string
    prompts: number | string
    active: number | string
  }>(
    db,
    sql`SELECT
          (SELECT count(*) FROM users WHERE deleted_at IS NULL) AS users,
          (SELECT teams FROM team_counts WHERE id = 1) AS teams,
          (SELECT count(*) FROM prompts) AS prompts,
          (SELECT count(*) FROM (
             SELECT user_id FROM sessions WHERE created_at >= ${since} OR updated_at >= ${since}
             UNION SELECT owner_user_id FROM prompts WHERE created_at >= ${since} OR updated_at >= ${since}
             UNION SELECT created_by_user_id FROM prompt_versions WHERE created_at >= ${since}
             UNION SELECT owner_user_id FROM conversations WHERE created_at >= ${since} OR updated_at >= ${since}
             UNION SELECT created_by_user_id FROM conversation_messages WHERE created_at >= ${since}
           ) active JOIN users u ON u.id = active.user_id AND u.deleted_at IS NULL) AS active`,
  )
  const days = await queryRows<{ date: string; count: number | string }>(
    db,
    sql`SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS date, count(*) AS count
        FROM users WHERE created_at >= ${firstDay}
        GROUP BY 1`,
  )
  return {
    generatedAt: now.toISOString(),
    windowHours: SYSTEM_STATS_WINDOW_HOURS,
    totalUsers: Number(totals?.users ?? 0),
    totalTeams: Number(totals?.teams ?? 0),
    totalPrompts: Number(totals?.prompts ?? 0),
    activeUsers: Number(totals?.active ?? 0),
    userAcquisition: acquisitionOf(
      days.map((day) => ({ date: day.date, count: Number(day.count) })),
      now,
    ),
  }
}
