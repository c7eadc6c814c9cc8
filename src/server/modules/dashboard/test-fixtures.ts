import { sql } from 'drizzle-orm'
import type { Db } from '../../db/client.ts'
import { queryRows } from '../../db/rows.ts'

/**
 * Every prompt whose kept figures (migration 0264: its version count, and whether a version newer
 * than its current one exists) differ from what counting its versions says: none, always.
 */
export function promptFiguresDrift(db: Db): Promise<{ id: string }[]> {
  return queryRows<{ id: string }>(
    db,
    sql`SELECT p.id FROM prompts p
      WHERE p.version_count <> (SELECT count(*) FROM prompt_versions v WHERE v.prompt_id = p.id)
         OR p.current_behind <> coalesce((
              SELECT EXISTS (SELECT 1 FROM prompt_versions w
                WHERE w.prompt_id = p.id AND w.version_number > cv.version_number)
              FROM prompt_versions cv WHERE cv.id = p.current_version_id), false)`,
  )
}
