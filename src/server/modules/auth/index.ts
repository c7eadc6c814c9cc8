/** What the other features use of auth: they import it from here only (scripts/check-server-layers.mjs). */
export { countFailedSignIns } from './failed-sign-ins.ts'
export { enforceRateLimits } from './rate-limits.ts'
