import type { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { Db } from '../../db/client.ts'
import type { Handlers } from '../../http/operations.ts'
import { createApiKey, listApiKeys, revokeApiKey } from './service.ts'

/** The key operations (`src/domain/api/api-keys.ts`). */
export function apiKeyHandlers({
  db,
  plans,
  appUrl,
}: {
  db: Db
  plans: PlanGate
  /** The public origin, for the link in the new key's notice mail. */
  appUrl: string
}): Handlers<typeof apiKeyOperations> {
  return {
    list: ({ actor, query }) => listApiKeys(db, actor, query.teamId),
    create: ({ actor, body }) => createApiKey(db, plans, actor, body, appUrl),
    revoke: ({ actor, params }) => revokeApiKey(db, actor, params.id),
  }
}
