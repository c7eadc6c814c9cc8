import type { Db, Tx } from '../../db/client.ts'
import type { Space } from '../prompts/names.ts'

/**
 * The plans' "API access" entitlement for one space (a user's personal prompts or a team's),
 * checked when a key is created and on every request a key authenticates. It throws
 * `AppError('forbidden', 'apiKeys.apiAccessLocked')` when the space's plan has no API access.
 * The plans feature (issue 12) replaces this body with its entitlement check; until then every
 * space has API access.
 */
export async function assertApiAccess(_db: Db | Tx, _space: Space): Promise<void> {}
