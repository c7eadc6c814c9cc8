import { Hono } from 'hono'
import type { AppEnv, UserEnv } from '../../http/env.ts'
import { requireUser } from '../../http/session.ts'

/** `/me` for API clients (401 when signed out). */
export function meRoutes() {
  return new Hono<UserEnv>().use(requireUser).get('/', (c) => c.json({ user: c.get('user') }))
}

/** `/session`: who is signed in, or `{ user: null }` — the web app asks this on every load. */
export function sessionRoutes() {
  return new Hono<AppEnv>().get('/', (c) => c.json({ user: c.get('user') }))
}
