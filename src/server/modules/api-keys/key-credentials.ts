/**
 * The key an `Authorization` header carries on the key-authenticated doors: Basic with the pair
 * `pk:sk` (the Langfuse routes, the MCP server), or Bearer with the secret alone (the MCP server,
 * /api/v1). The pair or secret is checked by `authenticateApiKey`; this only reads the header.
 */
export type KeyCredentials =
  | { kind: 'basic'; publicKey: string; secret: string }
  | { kind: 'bearer'; secret: string }
  /** A Basic header whose decoded value has no colon: no pair at all. */
  | { kind: 'malformed' }

export function keyCredentialsOf(header: string | undefined): KeyCredentials | null {
  if (!header) return null
  if (header.startsWith('Bearer ')) return { kind: 'bearer', secret: header.slice('Bearer '.length).trim() }
  if (!header.startsWith('Basic ')) return null
  const decoded = Buffer.from(header.slice('Basic '.length).trim(), 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return { kind: 'malformed' }
  return { kind: 'basic', publicKey: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}
