import type { CurrentUser } from '../../domain/auth.ts'
import type { Locale } from '../../domain/messages/index.ts'
import type { ApiKeyPrincipal } from '../core/principal.ts'
import type { Logger } from '../log.ts'
import type { AnswerHeaders } from './answer-headers.ts'

/** Values every request carries through Hono's context. */
export interface AppEnv {
  Variables: {
    requestId: string
    log: Logger
    locale: Locale
    /** The client's address, TRUST_PROXY applied; read it with `clientAddress(c)`. */
    clientAddress: string
    /** The signed-in user of this request, or null. Set for /api/v1/* only. */
    user: CurrentUser | null
    sessionId: string | null
    /** When the session began (its sign-in), or null without one: recent enough for `recentSignIn`? */
    signedInAt: Date | null
    /** The API key that authenticated this request (Bearer on /api/v1, Basic on /api/public). */
    apiKey?: ApiKeyPrincipal
    /** The headers a JSON answer is built with, as one plain record (`plainAnswer`). */
    answerHeaders?: AnswerHeaders
  }
}
