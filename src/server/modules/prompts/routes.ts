import type { promptOperations } from '../../../domain/api/prompts.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { Db } from '../../db/client.ts'
import { jsonStream } from '../../http/json.ts'
import type { Handlers } from '../../http/operations.ts'
import { compileVersion, getResolvedVersion } from './compile.ts'
import { listPrompts, listPromptTags } from './list.ts'
import {
  createPrompt,
  deletePrompt,
  getPromptDetail,
  getVersion,
  listPromptDependents,
  listVersions,
  savePrompt,
  setCurrentVersion,
} from './service.ts'
import { exportPrompts, importPrompts } from './transfer.ts'

/** The prompt operations (`src/domain/api/prompts.ts`), each answered by its service. */
export function promptHandlers({
  db,
  reads,
  plans,
  rateLimitMultiplier,
}: {
  db: Db
  /** For the list, tags, export and a version's read, which tolerate a replica's lag (`Database.reader`). */
  reads: Db
  plans: PlanGate
  /** RATE_LIMIT_MULTIPLIER, for the compile limit. */
  rateLimitMultiplier: number
}): Handlers<typeof promptOperations> {
  return {
    list: ({ actor, query }) => listPrompts(reads, actor, query),
    tags: async ({ actor, query }) => ({
      items: await listPromptTags(reads, actor, query),
      nextCursor: null,
    }),
    create: ({ actor, body }) => createPrompt(db, plans, actor, body),
    // Streamed: a space's document is never built whole in memory.
    exportPrompts: async ({ actor, query, c }) => jsonStream(c, await exportPrompts(db, actor, query, reads)),
    importPrompts: ({ actor, body, progress }) => importPrompts(db, plans, actor, body, progress),
    get: ({ actor, params }) => getPromptDetail(db, actor, params.id),
    update: ({ actor, params, body }) => savePrompt(db, plans, actor, params.id, body),
    delete: async ({ actor, params }) => deletePrompt(db, actor, params.id),
    usedBy: ({ actor, params }) => listPromptDependents(db, actor, params.id),
    versions: ({ actor, params, query }) => listVersions(db, actor, params.id, query, reads),
    version: ({ actor, params }) => getVersion(db, actor, params.id, params.versionId, reads),
    resolvedVersion: ({ actor, params }) => getResolvedVersion(db, actor, params.id, params.versionId, reads),
    setCurrentVersion: ({ actor, params, body }) => setCurrentVersion(db, actor, params.id, body.versionId),
    compile: ({ actor, params, body }) => compileVersion(db, actor, params.id, body, rateLimitMultiplier),
  }
}
