import { z } from 'zod'
import {
  createProviderInput,
  expandedVariablesInput,
  expandedVariablesSchema,
  providerModelsSchema,
  providerSchema,
  runPromptInput,
  runResultSchema,
  updateProviderInput,
} from '../models.ts'
import { defineOperations, idParam, pageOf } from './operation.ts'

const teamIdField = z
  .union([z.literal(''), z.uuid({ error: 'teams.notFound' })], { error: 'teams.notFound' })
  .optional()
  .transform((value) => (value ? value : null))

export const listProvidersQuery = z.object({ teamId: teamIdField })
export const createProviderBody = createProviderInput.safeExtend({ teamId: teamIdField })

const providerParams = z.object({ id: idParam('models.providerNotFound') })
const promptParams = z.object({ id: idParam('prompts.notFound') })
const manage = 'space.manage'

export const modelOperations = defineOperations(
  'models',
  {
    title: 'Models',
    description:
      'Model providers of my personal space or of a team (team admins manage them, members use them): ' +
      'OpenAI-compatible APIs and Anthropic, each with its API key, which is stored encrypted and never ' +
      'sent back (only its last characters). Runs send a compiled prompt version to a model through ' +
      'the server; asked with `Accept: text/event-stream` the answer streams as server-sent events.',
  },
  {
    list: {
      method: 'GET',
      path: '/v1/model-providers',
      summary: 'The providers of my personal space, or of a team (`teamId`, team admins)',
      access: 'signed-in',
      query: listProvidersQuery,
      response: pageOf(providerSchema),
      errors: ['forbidden', 'not_found'],
      permission: manage,
    },
    usable: {
      method: 'GET',
      path: '/v1/model-providers/usable',
      summary: 'Every provider I may run prompts with: my own and those of my teams',
      access: 'signed-in',
      apiKeys: true,
      response: pageOf(providerSchema),
      permission: 'space.use',
    },
    create: {
      method: 'POST',
      path: '/v1/model-providers',
      summary: 'Add a provider with its API key (needs a recent sign-in)',
      access: 'signed-in',
      recentSignIn: true,
      body: createProviderBody,
      response: providerSchema,
      created: true,
      errors: ['forbidden', 'not_found', 'conflict'],
      permission: manage,
    },
    update: {
      method: 'PATCH',
      path: '/v1/model-providers/:id',
      summary:
        'Change a provider’s name, base URL, models or default model, or replace its key (needs a recent sign-in)',
      access: 'signed-in',
      recentSignIn: true,
      params: providerParams,
      body: updateProviderInput,
      response: providerSchema,
      errors: ['forbidden'],
      permission: manage,
    },
    delete: {
      method: 'DELETE',
      path: '/v1/model-providers/:id',
      summary: 'Delete a provider and its stored key',
      access: 'signed-in',
      params: providerParams,
      response: null,
      errors: ['forbidden'],
      permission: manage,
    },
    fetchModels: {
      method: 'POST',
      path: '/v1/model-providers/:id/models/fetch',
      summary: 'The model names the provider’s API lists (`GET /models`); nothing is stored',
      access: 'signed-in',
      params: providerParams,
      response: providerModelsSchema,
      errors: ['forbidden', 'conflict', 'upstream', 'validation'],
      permission: manage,
      readsOnly: true,
    },
    run: {
      method: 'POST',
      path: '/v1/prompts/:id/run',
      summary:
        'Run a version (current unless `version` or `label`) with `values` against a model of a provider ' +
        'I may use; the model and parameters default to the version’s config. `draft` (`body`, `config`, ' +
        '`variables`, with a version’s limits) runs an edited text instead, compiled as its saved version would ' +
        'be; `placeholders` fills a chat prompt’s placeholders with messages. With `Accept: text/event-stream` ' +
        'the answer streams: `text` events `{"text"}`, then `result` (the answer below) or `error` ' +
        '(`{"status","error"}`). Closing the connection cancels the request to the provider. At most ' +
        '20 runs a minute per user and 60 per space; failures of the provider are 502 with a message saying why',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      body: runPromptInput,
      response: runResultSchema,
      errors: ['rate_limited', 'conflict', 'upstream'],
      permission: 'prompt.view',
      streamsText: true,
    },
    variables: {
      method: 'POST',
      path: '/v1/prompts/:id/variables',
      summary:
        'The variables and placeholders of a version (current unless `version` or `label`), or of an ' +
        'edited `body`, after the prompts it includes are expanded: those only included prompts use ' +
        'too. A broken reference is a 400 naming it; counted as a compile (rate limit)',
      access: 'signed-in',
      params: promptParams,
      body: expandedVariablesInput,
      response: expandedVariablesSchema,
      errors: ['rate_limited'],
      permission: 'prompt.view',
      readsOnly: true,
    },
  },
)
