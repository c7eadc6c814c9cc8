import type { ApiKeyScope } from '../../domain/api-keys.ts'
import type { Actor } from '../../domain/auth.ts'
import type { Space } from '../../domain/spaces.ts'
import type { AuditWho } from './audit.ts'

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
 * Who acts in a write: a signed-in person, or an API key acting for its user. The audit log's
 * "who" (`auditWhoOf`) and a webhook event's actor (`eventActor` in events.ts) are derived from it,
 * so a key's write is a key's write at every door: refused for protected labels, recorded with
 * the key.
 */
export type Principal =
  | { kind: 'user'; actor: PersonActor }
  | { kind: 'apiKey'; keyId: string; userId: string | null; clientAddress?: string }

/** An actor no key authenticated: only `principalOf` makes a person's principal, from one of these. */
type PersonActor = Actor & { apiKeyId?: undefined }

/** The principal of a request of the app's API: its person, or the key that authenticated it. */
export function principalOf(actor: Actor): Principal {
  const { apiKeyId } = actor
  if (!apiKeyId) return { kind: 'user', actor: actor as PersonActor }
  return {
    kind: 'apiKey',
    keyId: apiKeyId,
    userId: actor.id,
    ...(actor.clientAddress !== undefined && { clientAddress: actor.clientAddress }),
  }
}

/** The key's principal, acting for its user, from the principal its request authenticated. */
export function keyPrincipal(key: Pick<ApiKeyPrincipal, 'keyId' | 'userId' | 'clientAddress'>): Principal {
  return {
    kind: 'apiKey',
    keyId: key.keyId,
    userId: key.userId,
    ...(key.clientAddress !== undefined && { clientAddress: key.clientAddress }),
  }
}

/** Who the audit log names. */
export function auditWhoOf(who: Principal): AuditWho | Actor {
  return who.kind === 'user'
    ? who.actor
    : {
        kind: 'api_key',
        userId: who.userId,
        apiKeyId: who.keyId,
        email: null,
        clientAddress: who.clientAddress ?? null,
      }
}
