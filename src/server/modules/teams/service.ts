import { sql } from 'drizzle-orm'
import type { TeamSummary } from '../../../domain/teams.ts'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'

/** The teams the user belongs to, with their role and the member count, by name. */
export async function listMyTeams(db: Db, userId: string): Promise<TeamSummary[]> {
  const rows = await queryRows<{
    id: string
    name: string
    role: 'admin' | 'member'
    member_count: number | string
    created_at: Date | string
  }>(
    db,
    sql`SELECT t.id, t.name, m.role, t.created_at,
          (SELECT count(*) FROM team_members c WHERE c.team_id = t.id) AS member_count
        FROM team_members m JOIN teams t ON t.id = m.team_id
        WHERE m.user_id = ${userId}
        ORDER BY lower(t.name), t.id`,
  )
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    role: row.role,
    isAdmin: row.role === 'admin',
    memberCount: Number(row.member_count),
    createdAt: new Date(row.created_at).toISOString(),
  }))
}
