import { planSubjectOfSpace, type Space } from '../../../domain/spaces.ts'
import type { PlanGate, SubjectRow } from '../../core/plan-gate.ts'
import type { Db, Tx } from '../../db/client.ts'

/**
 * The plans' "API access" entitlement of one space (a user's personal prompts or a team's),
 * checked when a key is created (in its transaction, under the space's plan lock) and on every
 * request a key authenticates (a read: a plan that loses API access locks its keys at once).
 * Refuses with 403 `plan_limit` (reason feature_not_available).
 */
export async function assertApiAccess(
  plans: PlanGate,
  db: Db | Tx,
  space: Space,
  options: { lock?: Tx; row?: SubjectRow } = {},
): Promise<void> {
  if (!plans.enabled) return
  const subject = planSubjectOfSpace(space)
  if (options.lock) return plans.require(options.lock, subject, 'apiAccess')
  await plans.assertFeature(db, subject, 'apiAccess', options.row)
}
