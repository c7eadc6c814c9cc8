import type { dashboardOperations } from '../../../domain/api/dashboard.ts'
import type { Db } from '../../db/client.ts'
import type { Handlers } from '../../http/operations.ts'
import { getDashboard } from './service.ts'

/** The dashboard operation (`src/domain/api/dashboard.ts`). */
export function dashboardHandlers(deps: { db: Db; reads: Db }): Handlers<typeof dashboardOperations> {
  return {
    get: ({ actor, query }) => getDashboard(deps, actor, query.teamId),
  }
}
