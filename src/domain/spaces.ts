import type { PlanSubject } from './plans.ts'

/**
 * A space: the prompts whose names are unique together and that one API key reaches — a user's
 * personal prompts (visibility 'private') or a team's (visibility 'team').
 */
export type Space = { kind: 'personal'; userId: string } | { kind: 'team'; teamId: string }

export function spaceOf(prompt: { visibility: string; teamId: string | null; ownerUserId: string }): Space {
  return prompt.visibility === 'team' && prompt.teamId
    ? { kind: 'team', teamId: prompt.teamId }
    : { kind: 'personal', userId: prompt.ownerUserId }
}

/** The space's id as the Langfuse API calls it (`projectId`). */
export function spaceId(space: Space): string {
  return space.kind === 'team' ? space.teamId : space.userId
}

/** Whose plan decides what the space may do. */
export const planSubjectOfSpace = (space: Space): PlanSubject =>
  space.kind === 'team'
    ? { context: 'team', teamId: space.teamId }
    : { context: 'personal', userId: space.userId }
