import { Hono } from 'hono'
import { profileUpdateInput } from '../../../domain/profile.ts'
import type { Db } from '../../db/client.ts'
import type { UserEnv } from '../../http/env.ts'
import { jsonBody } from '../../http/input.ts'
import { requireUser } from '../../http/session.ts'
import { getProfile, updateProfile } from './service.ts'

/** `/profile`: the signed-in user's own profile settings. */
export function profileRoutes(deps: { db: Db }) {
  return new Hono<UserEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json({ profile: await getProfile(deps.db, c.get('user')) }))
    .patch('/', async (c) => {
      const input = await jsonBody(c, profileUpdateInput)
      return c.json({ profile: await updateProfile(deps.db, c.get('user'), input) })
    })
}
