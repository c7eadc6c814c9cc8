import { and, eq, like, type SQL } from 'drizzle-orm'
import { nameCandidate, nameFromTitle } from '../../../domain/prompt-names.ts'
import type { Space } from '../../../domain/spaces.ts'
import type { Db, Tx } from '../../db/client.ts'
import { prompts } from '../../db/schema/index.ts'

/** The prompts of the space. */
export function inSpace(space: Space): SQL {
  return space.kind === 'personal'
    ? and(eq(prompts.ownerUserId, space.userId), eq(prompts.visibility, 'private'))!
    : and(eq(prompts.teamId, space.teamId), eq(prompts.visibility, 'team'))!
}

/**
 * A free name in the space made from the title: 'Triage', else 'Triage-2', 'Triage-3'... One query
 * reads the taken candidates; the unique index still decides when two creates race.
 */
export async function freeNameFromTitle(db: Db | Tx, space: Space, title: string): Promise<string> {
  const base = nameFromTitle(title)
  const rows = await db
    .select({ name: prompts.name })
    .from(prompts)
    .where(and(inSpace(space), like(prompts.name, `${base.replace(/[\\%_]/g, '\\$&')}%`)))
  const taken = new Set(rows.map((row) => row.name))
  for (let attempt = 1; ; attempt++) {
    const candidate = nameCandidate(base, attempt)
    if (!taken.has(candidate)) return candidate
  }
}
