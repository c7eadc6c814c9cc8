import { z } from 'zod'
import { defineOperations } from './operation.ts'

export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.object({ kind: z.string(), latencyMs: z.number() }),
})
export type Health = z.infer<typeof healthSchema>

export const systemOperations = defineOperations(
  'system',
  { title: 'System', description: 'Health and the API documents.' },
  {
    health: {
      method: 'GET',
      path: '/health',
      summary: 'The database kind and its round-trip latency, and the app version',
      access: 'public',
      response: healthSchema,
    },
    openApi: {
      method: 'GET',
      path: '/v1/openapi.json',
      summary: 'This OpenAPI document',
      access: 'public',
      response: z.record(z.string(), z.unknown()),
    },
  },
)
