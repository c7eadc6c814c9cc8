import type { ChoosablePlanId } from '../../../domain/plans.ts'
import type { Tx } from '../../db/client.ts'

/** A paid plan someone asked for; its row in plan_requests exists (pending) when the provider is called. */
export interface PlanRequestStart {
  requestId: string
  subjectKey: string
  plan: ChoosablePlanId
  requestedBy: { id: string; email: string }
}

/**
 * Where paid plans are paid (decision 0120). Choosing Pro or Team creates a pending request and
 * calls `start` in the same transaction; the provider answers its own reference for the request and,
 * for a hosted checkout, the URL the browser continues to. When the payment is done, the provider's
 * confirmation (an admin's grant, or a provider webhook) calls `activatePlan` (service.ts), which
 * sets the plan and marks the request granted.
 */
export interface BillingProvider {
  readonly id: string
  start(
    tx: Tx,
    request: PlanRequestStart,
  ): Promise<{ providerRef: string | null; checkoutUrl: string | null }>
}

/**
 * No payment provider is reachable from here: the request waits as pending until a global admin
 * grants it (PUT /api/v1/admin/plans), and the requester is told by mail.
 */
export const manualBillingProvider: BillingProvider = {
  id: 'manual',
  start: async () => ({ providerRef: null, checkoutUrl: null }),
}
