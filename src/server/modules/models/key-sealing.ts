import { hkdfSync } from 'node:crypto'
import { AppError } from '../../../domain/errors.ts'
import { type MailKey, openSecret, sealSecret } from '../../mail/sealing.ts'

/**
 * Provider API keys are sealed with the same AES-256-GCM scheme as the outbox's secrets
 * (mail/sealing.ts), under a key of their own: HKDF-SHA256 of AUTH_SECRET with another purpose, so
 * the one key never opens the other's values. A database copy alone holds no usable key.
 */
const keys = new Map<string, MailKey>()

export function providerKeyFrom(authSecret: string): MailKey {
  let key = keys.get(authSecret)
  if (!key) {
    key = { bytes: Buffer.from(hkdfSync('sha256', authSecret, 'promptfolio', 'model-provider-keys/v1', 32)) }
    keys.set(authSecret, key)
  }
  return key
}

export function providerKeyOf(config: { authSecret: string | null }): MailKey {
  if (!config.authSecret)
    throw new Error('providerKeyOf: the auth secret is not resolved (resolveAuthSecret)')
  return providerKeyFrom(config.authSecret)
}

export const sealApiKey = (key: MailKey, apiKey: string) => sealSecret(key, apiKey)

/** The provider's key; a key sealed under another AUTH_SECRET cannot be opened and must be entered again. */
export function openApiKey(key: MailKey, sealed: string): string {
  try {
    return openSecret(key, sealed)
  } catch {
    throw new AppError('conflict', 'models.keyUnreadable')
  }
}
