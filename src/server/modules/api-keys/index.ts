/** What the other features use of api-keys: they import it from here only (scripts/check-server-layers.mjs). */
export { admitKey, rateLimitHeaders } from './authenticate.ts'
export { keyCredentialsOf } from './key-credentials.ts'
export { isLivePublicKey } from './public-key.ts'
export type { StoredKeyRow } from './service.ts'
export {
  authenticateApiKey,
  hashSecret,
  keepKeyRow,
  keptKeyPrincipal,
  keyRowSelect,
  principalOfRow,
  spaceOfKeyRow,
} from './service.ts'
