import { z } from 'zod'
import { labelEventSchema, protectedLabelsInput, setLabelInput } from '../prompt-names.ts'
import { listVersionsQuery, promptDetailSchema } from '../prompts.ts'
import { defineOperations, idParam, pageOf } from './operation.ts'

const promptParams = z.object({ id: idParam('prompts.notFound') })
const labelParams = promptParams.extend({ label: z.string().min(1, 'prompts.labelNotSet') })
const eventParams = promptParams.extend({ eventId: idParam('prompts.labelEventNotFound') })
const teamParams = z.object({ teamId: idParam('teams.notFound') })

export const promptLabelOperations = defineOperations(
  'promptLabels',
  {
    title: 'Prompt labels',
    description:
      'Labels on prompt versions: `production` is the current version, `latest` the highest (kept ' +
      'by the server), any other label one version. Every move is kept in the label history. A ' +
      'team’s protected labels move only by its admins (and never by API keys).',
  },
  {
    set: {
      method: 'PUT',
      path: '/v1/prompts/:id/labels',
      summary: 'Put a label on a version (moving it from the version that held it)',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      body: setLabelInput,
      response: promptDetailSchema,
      errors: ['forbidden'],
      permission: 'prompt.setCurrent',
    },
    remove: {
      method: 'DELETE',
      path: '/v1/prompts/:id/labels/:label',
      summary: 'Take a label off the prompt',
      access: 'signed-in',
      apiKeys: true,
      params: labelParams,
      response: null,
      errors: ['forbidden', 'validation'],
      permission: 'prompt.setCurrent',
    },
    history: {
      method: 'GET',
      path: '/v1/prompts/:id/label-history',
      summary: 'Who moved which label from which version to which, newest first',
      access: 'signed-in',
      apiKeys: true,
      params: promptParams,
      query: listVersionsQuery,
      response: pageOf(labelEventSchema),
      permission: 'prompt.view',
    },
    revert: {
      method: 'POST',
      path: '/v1/prompts/:id/label-history/:eventId/revert',
      summary: 'Move the label of one history entry back to where it was before',
      access: 'signed-in',
      apiKeys: true,
      params: eventParams,
      response: promptDetailSchema,
      errors: ['forbidden', 'conflict'],
      permission: 'prompt.setCurrent',
    },
    protectedLabels: {
      method: 'GET',
      path: '/v1/teams/:teamId/protected-labels',
      summary: 'The team’s protected labels',
      access: 'signed-in',
      // Not with a key: no key reaches a team through this API (decision 0242).
      params: teamParams,
      response: pageOf(z.string()),
      permission: 'team.view_team_data',
    },
    setProtectedLabels: {
      method: 'PUT',
      path: '/v1/teams/:teamId/protected-labels',
      summary: 'Replace the team’s protected labels (team admins)',
      access: 'signed-in',
      // Not with a key: a team admin's personal key would otherwise lift the protection that
      // keeps every key from moving the labels.
      params: teamParams,
      body: protectedLabelsInput,
      response: pageOf(z.string()),
      errors: ['forbidden'],
      permission: 'team.manage_team',
    },
  },
)
