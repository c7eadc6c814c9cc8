import type { auditOperations } from '../../../domain/api/audit.ts'
import type { Db } from '../../db/client.ts'
import type { Handlers } from '../../http/operations.ts'
import { exportAuditEntries, listAuditEntries, listAuditTeams } from './service.ts'

/** The audit log's lists and exports; the service checks team scope inside. */
export function auditHandlers(deps: { db: Db }): Handlers<typeof auditOperations> {
  const { db } = deps
  return {
    list: ({ actor, query }) => listAuditEntries(db, actor, { kind: 'global' }, query),
    export: ({ actor, query }) => exportAuditEntries(db, actor, { kind: 'global' }, query),
    teams: () => listAuditTeams(db),
    teamList: ({ actor, params, query }) =>
      listAuditEntries(db, actor, { kind: 'team', teamId: params.teamId }, query),
    teamExport: ({ actor, params, query }) =>
      exportAuditEntries(db, actor, { kind: 'team', teamId: params.teamId }, query),
  }
}
