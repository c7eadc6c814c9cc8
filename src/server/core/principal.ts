import type { ApiKeyScope } from '../../domain/api-keys.ts'
import type { Space } from '../../domain/spaces.ts'

/** Who a request's key speaks for. */
export interface ApiKeyPrincipal {
  keyId: string
  publicKey: string
  space: Space
  scope: ApiKeyScope
  /** The user the key acts as: the personal space's owner, or the team key's creator. */
  userId: string | null
  /** The request's client address, for the audit log (set by the route that authenticated). */
  clientAddress?: string
  /** The window's figures for the X-RateLimit-* headers; `retryAfter` set once it is used up. */
  rateLimit: { limit: number; remaining: number; resetAt: number; retryAfter: number | null }
}

/**
 * What a key may call on /api/v1: the prompts and their labels, and running a prompt against a
 * model of its owner's own providers (so code can try a version before moving `production`; a run
 * is a POST, so only read-and-write keys run).
 */
const KEY_OPERATION_GROUPS: ReadonlySet<string> = new Set(['prompts', 'promptLabels'])
const KEY_OPERATIONS: ReadonlySet<string> = new Set(['models.run', 'models.usable'])

export function keyMayCall(operation: { id: string; group: string }): boolean {
  return KEY_OPERATION_GROUPS.has(operation.group) || KEY_OPERATIONS.has(operation.id)
}
