import type { dataRightsOperations } from '../../../domain/api/data-rights.ts'
import { clientAddress } from '../../http/client-address.ts'
import type { Handlers } from '../../http/operations.ts'
import type { Logger } from '../../log.ts'
import { type DataRightsDeps, deleteAccount, deletionCheck, sendDeletionCode } from './account-deletion.ts'
import { downloadExport, latestExport, startExport } from './exports.ts'
import { deleteTeam } from './team-deletion.ts'

/** Export my data, delete my account, delete a team. */
export function dataRightsHandlers(
  deps: DataRightsDeps & { log: Logger },
): Handlers<typeof dataRightsOperations> {
  const { db, log, config } = deps
  return {
    startExport: ({ actor }) => startExport(db, log, actor),
    latestExport: async ({ actor }) => ({ export: await latestExport(db, actor) }),
    downloadExport: async ({ actor, params }) => ({ ...(await downloadExport(db, actor, params.id)) }),
    deletionCheck: ({ actor }) => deletionCheck(db, actor),
    sendDeletionCode: async ({ actor, c }) => {
      await sendDeletionCode(deps, actor, clientAddress(c))
      return { sent: true }
    },
    deleteAccount: ({ actor, body, c }) => deleteAccount(deps, actor, body, clientAddress(c)),
    deleteTeam: ({ actor, params, body }) => deleteTeam(db, config.appUrl, actor, params.teamId, body),
  }
}
