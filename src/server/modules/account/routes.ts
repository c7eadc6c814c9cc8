import type { accountOperations } from '../../../domain/api/account.ts'
import type { Db } from '../../db/client.ts'
import type { Handlers } from '../../http/operations.ts'
import { getProfile, updateProfile } from './service.ts'
import { listSessions } from './sessions.ts'

/** Who is signed in, their sessions and their profile. */
export function accountHandlers({ db }: { db: Db }): Handlers<typeof accountOperations> {
  return {
    session: async ({ c }) => ({ user: c.get('user') }),
    sessions: async ({ actor, c }) => ({
      items: await listSessions(db, actor.id, c.get('sessionId')),
      nextCursor: null,
    }),
    me: async ({ c }) => c.get('user')!,
    profile: ({ actor }) => getProfile(db, actor),
    updateProfile: ({ actor, body }) => updateProfile(db, actor, body),
  }
}
