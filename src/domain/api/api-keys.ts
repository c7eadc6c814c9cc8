import { z } from 'zod'
import { apiKeySchema, createApiKeyInput, createdApiKeySchema } from '../api-keys.ts'
import { defineOperations, idParam, pageOf } from './operation.ts'

const teamIdField = z
  .union([z.literal(''), z.uuid({ error: 'teams.notFound' })], { error: 'teams.notFound' })
  .optional()
  .transform((value) => (value ? value : null))

export const listApiKeysQuery = z.object({ teamId: teamIdField })
export const createApiKeyBody = createApiKeyInput.extend({ teamId: teamIdField })

export const apiKeyOperations = defineOperations(
  'apiKeys',
  {
    title: 'API keys',
    description:
      'Key pairs for code: a public key `pk-pf-…` and a secret `sk-pf-…` shown once. A key belongs ' +
      'to the caller’s personal prompts or to a team (team admins manage those). Keys authenticate ' +
      '`/api/v1` prompt operations as `Authorization: Bearer <secret>` and the Langfuse-compatible ' +
      '`/api/public/*` routes as Basic `<public>:<secret>`.',
  },
  {
    list: {
      method: 'GET',
      path: '/v1/api-keys',
      summary: 'The live keys of my personal space, or of a team (`teamId`, team admins)',
      access: 'signed-in',
      query: listApiKeysQuery,
      response: pageOf(apiKeySchema),
      errors: ['forbidden', 'not_found'],
      permission: 'space.manage',
    },
    create: {
      method: 'POST',
      path: '/v1/api-keys',
      summary: 'Create a key; the answer carries its secret, this once (needs a recent sign-in)',
      access: 'signed-in',
      recentSignIn: true,
      body: createApiKeyBody,
      response: createdApiKeySchema,
      created: true,
      errors: ['forbidden', 'not_found', 'conflict', 'plan_limit'],
      permission: 'space.manage',
    },
    revoke: {
      method: 'DELETE',
      path: '/v1/api-keys/:id',
      summary: 'Revoke a key at once',
      access: 'signed-in',
      params: z.object({ id: idParam('apiKeys.notFound') }),
      response: null,
      errors: ['forbidden'],
      permission: 'space.manage',
    },
  },
)
