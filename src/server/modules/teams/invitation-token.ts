import { hash, randomBytes } from 'node:crypto'

/**
 * Invitation links carry 256 random bits; the database keeps only their SHA-256, so a leaked
 * database (or backup) holds no usable link. A fast hash is enough for a secret of this length.
 */
export function newInvitationToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url')
  return { token, hash: hashInvitationToken(token) }
}

export function hashInvitationToken(token: string): string {
  return hash('sha256', token, 'hex')
}
