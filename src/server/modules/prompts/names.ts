import { and, eq, like, type SQL } from 'drizzle-orm'
import { nameCandidate, nameFromTitle } from '../../../domain/prompt-names.ts'
import type { Db, Tx } from '../../db/client.ts'
import { prompts } from '../../db/schema/index.ts'

/**
 * A space: the prompts whose names are unique together and that one API key reaches — a user's
 * personal prompts (visibility 'private') or a team's (visibility 'team').
 */
export type Space = { kind: 'personal'; userId: string } | { kind: 'team'; teamId: string }

export function inSpace(space: Space): SQL {
  return space.kind === 'personal'
    ? and(eq(prompts.ownerUserId, space.userId), eq(prompts.visibility, 'private'))!
    : and(eq(prompts.teamId, space.teamId), eq(prompts.visibility, 'team'))!
}

export function spaceOf(prompt: { visibility: string; teamId: string | null; ownerUserId: string }): Space {
  return prompt.visibility === 'team' && prompt.teamId
    ? { kind: 'team', teamId: prompt.teamId }
    : { kind: 'personal', userId: prompt.ownerUserId }
}

/** The space's id as the Langfuse API calls it (`projectId`). */
export function spaceId(space: Space): string {
  return space.kind === 'team' ? space.teamId : space.userId
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
