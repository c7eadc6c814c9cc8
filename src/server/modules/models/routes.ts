import type { modelOperations } from '../../../domain/api/models.ts'
import type { Handlers } from '../../http/operations.ts'
import { expandedVariables } from '../prompts/index.ts'
import { runPrompt } from './run.ts'
import {
  createProvider,
  deleteProvider,
  fetchProviderModels,
  listProviders,
  listUsableProviders,
  type ModelDeps,
  updateProvider,
} from './service.ts'

/** The model provider and run operations (`src/domain/api/models.ts`). */
export function modelHandlers(deps: ModelDeps): Handlers<typeof modelOperations> {
  const { db } = deps
  return {
    list: ({ actor, query }) => listProviders(db, actor, query.teamId),
    usable: ({ actor }) => listUsableProviders(db, actor),
    create: ({ actor, body }) => createProvider(deps, actor, body),
    update: ({ actor, params, body }) => updateProvider(deps, actor, params.id, body),
    delete: ({ actor, params }) => deleteProvider(db, actor, params.id),
    fetchModels: ({ actor, params }) => fetchProviderModels(deps, actor, params.id),
    run: ({ actor, params, body, signal, text }) =>
      runPrompt(deps, actor, params.id, body, { signal, onText: text }),
    variables: ({ actor, params, body }) =>
      expandedVariables(db, actor, params.id, body, deps.rateLimitMultiplier),
  }
}
