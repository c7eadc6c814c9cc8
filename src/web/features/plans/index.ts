/**
 * What other features and screens use of plans: the plan banner (dashboard, prompts list), the
 * paywall before gated actions and on a server `plan_limit` refusal, and the entitlements.
 */

export { ApiAccessBadge } from './api-access-badge.tsx'
export { BillingSpaceCard } from './billing-space.tsx'
export { usePaywall } from './paywall.tsx'
export { PlanBanner } from './plan-banner.tsx'
export { PlanModeNotice } from './plan-mode.tsx'
export { useBilling, useEntitlements } from './queries.ts'
