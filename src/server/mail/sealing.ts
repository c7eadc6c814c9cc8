import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto'

/**
 * The secrets of a queued mail (a sign-in code, a link's token) are stored encrypted: the bodies
 * hold a placeholder where each secret goes, the `secrets` column the secrets sealed with
 * AES-256-GCM under a key derived from AUTH_SECRET (which every process of an installation
 * shares). A copy of the database alone (a backup, a replica, a leaked dump) therefore holds no
 * code or link that works. The delivery puts them back just to send, and once the mail is sent the
 * row keeps neither (see delivery.ts).
 */
export interface MailKey {
  readonly bytes: Buffer
}

const keys = new Map<string, MailKey>()

/** The outbox key of an installation: HKDF-SHA256 of AUTH_SECRET, for this one use. */
export function mailKeyFrom(authSecret: string): MailKey {
  let key = keys.get(authSecret)
  if (!key) {
    key = { bytes: Buffer.from(hkdfSync('sha256', authSecret, 'promptfolio', 'mail-outbox-secrets/v1', 32)) }
    keys.set(authSecret, key)
  }
  return key
}

/** The key of a resolved configuration (`resolveAuthSecret` has run). */
export function mailKeyOf(config: { authSecret: string | null }): MailKey {
  if (!config.authSecret) throw new Error('mailKeyOf: the auth secret is not resolved (resolveAuthSecret)')
  return mailKeyFrom(config.authSecret)
}

const SEALED = 'v1:'

export function sealSecret(key: MailKey, secret: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key.bytes, iv)
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()])
  return `${SEALED}${Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64')}`
}

/** The secret; a value stored before secrets were sealed is returned as it is. Throws if tampered. */
export function openSecret(key: MailKey, stored: string): string {
  if (!stored.startsWith(SEALED)) return stored
  const raw = Buffer.from(stored.slice(SEALED.length), 'base64')
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, raw.subarray(0, 12))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}

/** Where the i-th secret goes in a stored body: private-use characters no rendered text contains. */
export const placeholder = (index: number) => `\uE000${index}\uE001`
const placeholders = /\uE000(\d+)\uE001/g

/** `text` with each secret replaced by its placeholder. */
export function withPlaceholders(text: string, secrets: readonly string[]): string
export function withPlaceholders(text: string | null, secrets: readonly string[]): string | null
export function withPlaceholders(text: string | null, secrets: readonly string[]): string | null {
  if (text === null) return null
  return secrets.reduce((out, secret, i) => (secret ? out.replaceAll(secret, placeholder(i)) : out), text)
}

/** `text` with every placeholder replaced by `fill(index)`. */
export function fillPlaceholders(text: string, fill: (index: number) => string): string
export function fillPlaceholders(text: string | null, fill: (index: number) => string): string | null
export function fillPlaceholders(text: string | null, fill: (index: number) => string): string | null {
  return text === null ? null : text.replace(placeholders, (_, index: string) => fill(Number(index)))
}
