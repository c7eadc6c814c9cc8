import type { mailOperations } from '../../../domain/api/mail.ts'
import type { Config } from '../../config.ts'
import type { Db } from '../../db/client.ts'
import { clientAddress } from '../../http/client-address.ts'
import type { Handlers } from '../../http/operations.ts'
import { enforceRateLimits } from '../auth/index.ts'
import { getOutboxMail, listOutbox, retryMail, sendTestMail } from './service.ts'

/**
 * The mail outbox for global admins: every mail, also the ones never sent because SMTP is not
 * configured; a test mail; a failed mail queued again.
 */
export function mailHandlers(deps: {
  db: Db
  config: Pick<Config, 'smtpUrl' | 'mailFrom' | 'appUrl' | 'rateLimitMultiplier'>
}): Handlers<typeof mailOperations> {
  const { db, config } = deps
  return {
    outbox: ({ query }) => listOutbox(db, config, query),
    get: ({ params }) => getOutboxMail(db, params.id),
    sendTest: async ({ actor, body, c }) => {
      await enforceRateLimits(
        db,
        'mail-test',
        { ip: clientAddress(c), account: actor.email },
        config.rateLimitMultiplier,
      )
      return sendTestMail(db, config.appUrl, actor, body.to)
    },
    retry: ({ params }) => retryMail(db, params.id),
  }
}
