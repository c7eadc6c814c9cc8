import { Hono } from 'hono'
import type { Db } from '../../db/client.ts'
import type { UserEnv } from '../../http/env.ts'
import { requireUser } from '../../http/session.ts'
import { listMyTeams } from './service.ts'

export function teamRoutes(deps: { db: Db }) {
  return new Hono<UserEnv>().use(requireUser).get('/', async (c) => {
    return c.json({ items: await listMyTeams(deps.db, c.get('user').id) })
  })
}
