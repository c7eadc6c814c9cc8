import type { authOperations } from '../../../domain/api/auth.ts'
import type { Database } from '../../db/client.ts'
import type { Handlers } from '../../http/operations.ts'
import { authDiagnosticsHandler } from './diagnostics.ts'
import { reauthenticateHandlers } from './reauthenticate.ts'
import { recoveryHandlers } from './recovery.ts'
import { type AuthRouteDeps, signInHandlers } from './sign-in.ts'

/** The sign-in operations (`src/domain/api/auth.ts`): sign-in, recovery, and the admin diagnostics. */
export function authHandlers(deps: AuthRouteDeps & { database: Database }): Handlers<typeof authOperations> {
  return {
    ...signInHandlers(deps),
    ...recoveryHandlers(deps),
    ...reauthenticateHandlers(deps),
    diagnostics: authDiagnosticsHandler(deps),
  }
}
