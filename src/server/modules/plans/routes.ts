import type { planOperations } from '../../../domain/api/plans.ts'
import type { Handlers } from '../../http/operations.ts'
import {
  adminSetPlan,
  cancelPlanRequest,
  choosePlan,
  getEntitlements,
  listBillingSpaces,
  listPlanRequests,
  type PlanDeps,
} from './service.ts'

/** Plans, entitlements and billing (`src/domain/api/plans.ts`). */
export function planHandlers(deps: PlanDeps): Handlers<typeof planOperations> {
  return {
    entitlements: ({ actor, query }) => getEntitlements(deps, actor, query.teamId),
    billing: async ({ actor }) => ({ items: await listBillingSpaces(deps, actor), nextCursor: null }),
    choose: ({ actor, body }) => choosePlan(deps, actor, body),
    cancelRequest: ({ actor, params }) => cancelPlanRequest(deps, actor, params.requestId),
    adminRequests: async ({ query }) => ({
      items: await listPlanRequests(deps.db, query.status),
      nextCursor: null,
    }),
    adminSetPlan: ({ actor, body }) => adminSetPlan(deps, actor, body),
  }
}
