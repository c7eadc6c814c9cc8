import { AppError } from '../../../domain/errors.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import { assertPublicTarget } from '../../core/outbound-address.ts'

const modelMessages: Partial<Record<MessageKey, MessageKey>> = {
  'webhooks.urlPrivate': 'models.baseUrlPrivate',
  'webhooks.urlUnresolvable': 'models.baseUrlUnresolvable',
}

/**
 * A provider's base URL passes the webhook address guard: its host must resolve, and only to public
 * addresses, unless MODELS_ALLOW_PRIVATE=1 (a model on the same host or network). Refusals name
 * the `baseUrl` field, in the models' words.
 */
export async function assertPublicBaseUrl(baseUrl: string, allowPrivate: boolean): Promise<void> {
  try {
    await assertPublicTarget(baseUrl, allowPrivate)
  } catch (error) {
    const key = error instanceof AppError ? modelMessages[error.messageKey] : undefined
    if (!key) throw error
    throw new AppError('validation', key, { fields: { baseUrl: key } })
  }
}
