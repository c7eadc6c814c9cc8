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
