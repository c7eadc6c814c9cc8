import type { promptLabelOperations } from '../../../domain/api/prompt-labels.ts'
import type { Db } from '../../db/client.ts'
import type { Handlers } from '../../http/operations.ts'
import {
  labelHistory,
  listProtectedLabels,
  removeLabel,
  revertLabelEvent,
  setLabel,
  setProtectedLabels,
} from './label-service.ts'

/** The label operations (`src/domain/api/prompt-labels.ts`). */
export function promptLabelHandlers({ db }: { db: Db }): Handlers<typeof promptLabelOperations> {
  return {
    set: ({ actor, params, body }) => setLabel(db, actor, params.id, body),
    remove: ({ actor, params }) => removeLabel(db, actor, params.id, params.label),
    history: ({ actor, params, query }) => labelHistory(db, actor, params.id, query),
    revert: ({ actor, params }) => revertLabelEvent(db, actor, params.id, params.eventId),
    protectedLabels: ({ actor, params }) => listProtectedLabels(db, actor, params.teamId),
    setProtectedLabels: ({ actor, params, body }) =>
      setProtectedLabels(db, actor, params.teamId, body.labels),
  }
}
