import { z } from 'zod'
import { defineOperations } from './operation.ts'

/**
 * A read replica (DATABASE_READ_URL) as this process sees it (named `replica <n>` in the public
 * health answer, host:port/database in the admin's System Health): `ok` serves reads; `lagging` is
 * further behind than DATABASE_READ_MAX_LAG_MS, `down` does not answer, `not_replica` is not in
 * recovery (all three are skipped); `starting` is not probed yet. Named by host:port/database only.
 */
export const replicaStatusSchema = z.object({
  name: z.string(),
  state: z.enum(['starting', 'ok', 'lagging', 'down', 'not_replica']),
  /** How long it has missed data the primary had, in milliseconds (null: unknown). */
  lagMs: z.number().nullable(),
  /** Reads this process sent it since its start. */
  reads: z.number().int(),
  checkedAt: z.string().nullable(),
})

export const healthSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.object({
    kind: z.string(),
    latencyMs: z.number(),
    /** Only with read replicas configured. */
    replicas: z.array(replicaStatusSchema).optional(),
  }),
})
export type Health = z.infer<typeof healthSchema>

export const systemOperations = defineOperations(
  'system',
  { title: 'System', description: 'Health and the API documents.' },
  {
    health: {
      method: 'GET',
      path: '/health',
      summary:
        "The database kind and its round-trip latency, each read replica's state and lag, and the app version",
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
