import { operationGroups } from '../../../domain/api/index.ts'
import type { systemOperations } from '../../../domain/api/system.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Database } from '../../db/client.ts'
import { unavailableRetryAfter } from '../../db/unavailable.ts'
import { openApiDocument } from '../../http/openapi.ts'
import type { Handlers } from '../../http/operations.ts'

/** Health (the database's round trip) and the OpenAPI document, built once on first request. */
export function systemHandlers(deps: {
  database: Database
  version: string
}): Handlers<typeof systemOperations> {
  const { database, version } = deps
  let document: ReturnType<typeof openApiDocument> | undefined
  return {
    health: async ({ c }) => {
      let latencyMs: number
      try {
        latencyMs = await database.ping()
      } catch (error) {
        c.get('log').error('health check failed', { err: error })
        throw new AppError('transient', undefined, { retryAfter: unavailableRetryAfter })
      }
      // A public answer: the replicas by number, not by host (System Health names them to admins).
      const replicas = database.replicas
        ?.statuses()
        .map((replica, index) => ({ ...replica, name: `replica ${index + 1}` }))
      return {
        status: 'ok',
        version,
        database: { kind: database.kind, latencyMs, ...(replicas && { replicas }) },
      }
    },
    openApi: async () => {
      document ??= openApiDocument([...operationGroups], version)
      return document
    },
  }
}
