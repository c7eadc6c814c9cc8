import type { webhookOperations } from '../../../domain/api/webhooks.ts'
import type { Handlers } from '../../http/operations.ts'
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  redeliver,
  revealWebhookSecret,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
  type WebhookDeps,
} from './service.ts'

/** The webhook operations (`src/domain/api/webhooks.ts`). */
export function webhookHandlers(deps: WebhookDeps): Handlers<typeof webhookOperations> {
  const { db } = deps
  return {
    list: ({ actor, query }) => listWebhooks(db, actor, query.teamId),
    create: ({ actor, body }) => createWebhook(deps, actor, body),
    update: ({ actor, params, body }) => updateWebhook(deps, actor, params.id, body),
    delete: ({ actor, params }) => deleteWebhook(db, actor, params.id),
    revealSecret: ({ actor, params }) => revealWebhookSecret(db, actor, params.id),
    rotateSecret: ({ actor, params }) => rotateWebhookSecret(db, actor, params.id),
    sendTest: ({ actor, params }) => sendTestEvent(deps, actor, params.id),
    deliveries: ({ actor, params, query }) => listDeliveries(db, actor, params.id, query),
    redeliver: ({ actor, params }) => redeliver(deps, actor, params.id, params.deliveryId),
  }
}
