import { z } from 'zod'

/**
 * API keys: a pair per key, a public `pk-pf-…` and a secret `sk-pf-…` shown once and
 * stored hashed. A key belongs to one space, a user's personal prompts or a team's, and reads only
 * (`read`) or also writes (`read_write`) there.
 */
export const apiKeyScopes = ['read', 'read_write'] as const
export type ApiKeyScope = (typeof apiKeyScopes)[number]

export const PUBLIC_KEY_PREFIX = 'pk-pf-'
export const SECRET_KEY_PREFIX = 'sk-pf-'
/** Requests one key may make per window (times RATE_LIMIT_MULTIPLIER). */
export const API_KEY_RATE_LIMIT = 1000
export const API_KEY_RATE_WINDOW_SECONDS = 60
/** Keys one space may hold (revoked ones do not count). */
export const API_KEYS_PER_SPACE = 50

export const createApiKeyInput = z.object({
  name: z
    .string({ error: 'apiKeys.nameRequired' })
    .trim()
    .min(1, 'apiKeys.nameRequired')
    .max(100, 'apiKeys.nameTooLong'),
  scope: z.enum(apiKeyScopes, { error: 'apiKeys.scopeInvalid' }).default('read'),
})
export type CreateApiKeyInput = z.input<typeof createApiKeyInput>

export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  publicKey: z.string(),
  /** `sk-pf-…` and the secret's last four characters. */
  secretHint: z.string(),
  scope: z.enum(apiKeyScopes),
  teamId: z.uuid().nullable(),
  createdByUserId: z.string().nullable(),
  createdByEmail: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
})
export type ApiKey = z.infer<typeof apiKeySchema>

/** The answer of a create: the key and, this once, its secret. */
export const createdApiKeySchema = apiKeySchema.extend({ secretKey: z.string() })
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>

/** May a key of this scope make a request with this method? */
export function scopeAllows(scope: ApiKeyScope, method: string): boolean {
  return scope === 'read_write' || method === 'GET' || method === 'HEAD'
}

/** `sk-pf-…abcd`: how a key's secret is shown after it was created. */
export function secretHintOf(secret: string): string {
  return `${SECRET_KEY_PREFIX}…${secret.slice(-4)}`
}
