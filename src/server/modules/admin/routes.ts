import type { adminOperations } from '../../../domain/api/admin.ts'
import type { Auth } from '../../auth/auth.ts'
import type { Config } from '../../config.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { Database } from '../../db/client.ts'
import { clientAddress, headersForAuth } from '../../http/client-address.ts'
import type { Handlers } from '../../http/operations.ts'
import { enforceRateLimits } from '../auth/index.ts'
import { type BuildConfig, getBuildStatus } from './build-status.ts'
import { getSystemHealth, type HealthConfig } from './health.ts'
import { probeCodeSignIn, runProbes } from './probes.ts'
import { getSystemStats } from './stats.ts'
import { listTeams } from './teams.ts'
import { listUsers, setGlobalRole } from './users.ts'

/** The global admin area (`src/domain/api/admin.ts`); the access rule refuses everyone else. */
export function adminHandlers(deps: {
  database: Database
  auth: Auth
  plans: PlanGate
  config: HealthConfig & BuildConfig & Pick<Config, 'rateLimitMultiplier'>
}): Handlers<typeof adminOperations> {
  const { database, auth, plans, config } = deps
  const db = database.db
  // The figures and lists tolerate a replica's lag; the role change and everything else do not.
  const reads = database.reader
  return {
    stats: () => getSystemStats(reads),
    users: ({ query }) => listUsers(reads, plans, query),
    teams: ({ query }) => listTeams(reads, plans, query),
    setRole: ({ actor, params, body }) =>
      setGlobalRole({ db, plans, adminEmail: config.adminEmail }, actor, params.userId, body),
    health: () => getSystemHealth(database, config),
    buildStatus: () => getBuildStatus(database, config),
    probes: ({ actor, query }) => runProbes(db, actor, query.teamId),
    probeCodeSignIn: async ({ actor, c }) => {
      await enforceRateLimits(
        db,
        'code-send',
        { ip: clientAddress(c), account: actor.email },
        config.rateLimitMultiplier,
      )
      return probeCodeSignIn(actor, (email) =>
        auth.api.sendVerificationOTP({ body: { email, type: 'sign-in' }, headers: headersForAuth(c) }),
      )
    },
  }
}
