import { Hono } from 'hono'
import { AppError } from '../../../domain/errors.ts'
import type { Database } from '../../db/client.ts'
import type { AppEnv } from '../../http/env.ts'

export function healthRoutes(database: Database, version: string) {
  return new Hono<AppEnv>().get('/', async (c) => {
    let latencyMs: number
    try {
      latencyMs = await database.ping()
    } catch (error) {
      c.get('log').error('health check failed', { err: error })
      throw new AppError('transient')
    }
    return c.json({ status: 'ok', version, database: { kind: database.kind, latencyMs } })
  })
}
