import { useQuery } from '@tanstack/react-query'
import { systemOperations } from '../../../domain/api/system.ts'
import { operationQuery } from '../../lib/queries.ts'

/** Whether the API and its database answer (the /test page). */
export function useHealth() {
  return useQuery({ ...operationQuery(systemOperations.health, {}), retry: false })
}
