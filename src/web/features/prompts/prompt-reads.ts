import type { promptOperations } from '../../../domain/api/prompts.ts'
import { PROMPT_VERSION_CACHE_MS } from '../../../domain/constants.ts'
import { operationRefs } from '../../lib/api.ts'
import { operationQuery, pagedOperationQuery } from '../../lib/queries.ts'

/**
 * The prompt screen's first reads, by address (`operationRefs`): the route table asks for them as
 * `/prompts/:id` is entered, before the screen's code and the schemas have arrived (decision 0235).
 */
const reads = operationRefs<Pick<typeof promptOperations, 'get' | 'versions'>>('prompts', {
  get: { method: 'GET', path: '/v1/prompts/:id' },
  versions: { method: 'GET', path: '/v1/prompts/:id/versions' },
})

/** The prompt with its current version and what the user may do with it. */
export function promptQuery(id: string) {
  return operationQuery(reads.get, { params: { id } })
}

/** The history, newest first, 20 versions a page ('Load more'). */
export function promptVersionsQuery(id: string) {
  return {
    ...pagedOperationQuery(reads.versions, { params: { id } }),
    // Prompt version lookups are cached for 60 s.
    staleTime: PROMPT_VERSION_CACHE_MS,
  }
}
