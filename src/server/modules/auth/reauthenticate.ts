import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import type { authOperations } from '../../../domain/api/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { sessions } from '../../db/schema/index.ts'
import type { AppEnv } from '../../http/env.ts'
import type { Handlers } from '../../http/operations.ts'
import { type AuthRouteDeps, signInHandlers } from './sign-in.ts'

type ReauthenticateOperations = Pick<
  Handlers<typeof authOperations>,
  'reauthenticate' | 'sendReauthenticationCode' | 'reauthenticateWithCode'
>

/**
 * Step-up: the signed-in user signs in again, as themselves, with the sign-in's own rules (its
 * rate and failure limits, its record of failed sign-ins). A new session with a fresh sign-in time
 * replaces the current one, which ends: that time is what `recentSignIn` operations ask about.
 */
export function reauthenticateHandlers(deps: AuthRouteDeps): ReauthenticateOperations {
  const signIn = signInHandlers(deps)
  // The sign-in handlers only read the body and the request.
  type SignInContext<K extends 'signIn' | 'sendCode' | 'verifyCode'> = Parameters<(typeof signIn)[K]>[0]
  const as = <K extends 'signIn' | 'sendCode' | 'verifyCode'>(
    c: Context<AppEnv>,
    body: SignInContext<K>['body'],
  ) => ({ body, c }) as SignInContext<K>

  const replaceSession = async (c: Context<AppEnv>) => {
    const previous = c.get('sessionId')
    if (previous) await deps.db.delete(sessions).where(eq(sessions.id, previous))
  }

  return {
    reauthenticate: async ({ actor, body, c }) => {
      const result = await signIn
        .signIn(as<'signIn'>(c, { email: actor.email, password: body.password }))
        .catch((error: unknown) => {
          // Here the address is known: only the password can be wrong.
          if (error instanceof AppError && error.code === 'not_authenticated') {
            throw new AppError('validation', 'auth.reauthenticationPasswordInvalid', {
              fields: { password: 'auth.reauthenticationPasswordInvalid' },
            })
          }
          throw error
        })
      await replaceSession(c)
      return result
    },
    sendReauthenticationCode: ({ actor, c }) => signIn.sendCode(as<'sendCode'>(c, { email: actor.email })),
    reauthenticateWithCode: async ({ actor, body, c }) => {
      const result = await signIn.verifyCode(as<'verifyCode'>(c, { email: actor.email, code: body.code }))
      await replaceSession(c)
      return result
    },
  }
}
