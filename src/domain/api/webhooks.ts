import { z } from 'zod'
import { cursorParam, limitParam } from '../list-params.ts'
import {
  createdWebhookSchema,
  createWebhookInput,
  updateWebhookInput,
  webhookDeliverySchema,
  webhookEndpointSchema,
  webhookSecretSchema,
} from '../webhooks.ts'
import { defineOperations, idParam, pageOf } from './operation.ts'

const teamIdField = z
  .union([z.literal(''), z.uuid({ error: 'teams.notFound' })], { error: 'teams.notFound' })
  .optional()
  .transform((value) => (value ? value : null))

export const listWebhooksQuery = z.object({ teamId: teamIdField })
export const createWebhookBody = createWebhookInput.extend({ teamId: teamIdField })
export const listDeliveriesQuery = z.object({
  limit: limitParam({ default: 20, max: 100 }),
  cursor: cursorParam.optional(),
})

const endpointParams = z.object({ id: idParam('webhooks.notFound') })
const deliveryParams = z.object({
  id: idParam('webhooks.notFound'),
  deliveryId: idParam('webhooks.deliveryNotFound'),
})
const manage = 'space.manage'

export const webhookOperations = defineOperations(
  'webhooks',
  {
    title: 'Webhooks',
    description:
      'Endpoints of my personal space or of a team (team admins) that receive signed events about ' +
      'prompts and conversations (Standard Webhooks: `webhook-id`, `webhook-timestamp`, ' +
      '`webhook-signature` over `id.timestamp.body` with the endpoint’s `whsec_…` secret). Events ' +
      'are queued with the change that causes them and retried for about a day.',
  },
  {
    list: {
      method: 'GET',
      path: '/v1/webhooks',
      summary: 'The endpoints of my personal space, or of a team (`teamId`, team admins)',
      access: 'signed-in',
      query: listWebhooksQuery,
      response: pageOf(webhookEndpointSchema),
      errors: ['forbidden', 'not_found'],
      permission: manage,
    },
    create: {
      method: 'POST',
      path: '/v1/webhooks',
      summary: 'Create an endpoint; the answer carries its signing secret (needs a recent sign-in)',
      access: 'signed-in',
      recentSignIn: true,
      body: createWebhookBody,
      response: createdWebhookSchema,
      created: true,
      errors: ['forbidden', 'not_found', 'conflict', 'plan_limit'],
      permission: manage,
    },
    update: {
      method: 'PATCH',
      path: '/v1/webhooks/:id',
      summary:
        'Change an endpoint’s URL, description or events, or pause and enable it (needs a recent sign-in)',
      access: 'signed-in',
      recentSignIn: true,
      params: endpointParams,
      body: updateWebhookInput,
      response: webhookEndpointSchema,
      errors: ['forbidden', 'plan_limit'],
      permission: manage,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/webhooks/:id',
      summary: 'Delete an endpoint and its delivery log',
      access: 'signed-in',
      params: endpointParams,
      response: null,
      errors: ['forbidden'],
      permission: manage,
    },
    revealSecret: {
      method: 'GET',
      path: '/v1/webhooks/:id/secret',
      summary:
        'The endpoint’s signing secret (and the previous one during a rotation) (needs a recent sign-in)',
      access: 'signed-in',
      recentSignIn: true,
      params: endpointParams,
      response: webhookSecretSchema,
      errors: ['forbidden'],
      permission: manage,
    },
    rotateSecret: {
      method: 'POST',
      path: '/v1/webhooks/:id/secret/rotate',
      summary: 'A new signing secret; the old one keeps signing for 24 hours (needs a recent sign-in)',
      access: 'signed-in',
      recentSignIn: true,
      params: endpointParams,
      response: webhookSecretSchema,
      errors: ['forbidden'],
      permission: manage,
    },
    sendTest: {
      method: 'POST',
      path: '/v1/webhooks/:id/test',
      summary: 'Queue a `webhook.test` event to this endpoint (with redeliveries, 10 a minute)',
      access: 'signed-in',
      params: endpointParams,
      response: webhookDeliverySchema,
      created: true,
      errors: ['forbidden', 'conflict', 'plan_limit', 'rate_limited'],
      permission: manage,
    },
    deliveries: {
      method: 'GET',
      path: '/v1/webhooks/:id/deliveries',
      summary: 'The endpoint’s deliveries, newest first, each with its attempts',
      access: 'signed-in',
      params: endpointParams,
      query: listDeliveriesQuery,
      response: pageOf(webhookDeliverySchema),
      errors: ['forbidden'],
      permission: manage,
    },
    redeliver: {
      method: 'POST',
      path: '/v1/webhooks/:id/deliveries/:deliveryId/redeliver',
      summary:
        'Send a delivery’s event again (same event id), as a new delivery (with test events, 10 a minute)',
      access: 'signed-in',
      params: deliveryParams,
      response: webhookDeliverySchema,
      created: true,
      errors: ['forbidden', 'conflict', 'plan_limit', 'rate_limited'],
      permission: manage,
    },
  },
)
