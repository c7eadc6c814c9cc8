import { z } from 'zod'
import { dataExportSchema, deleteAccountInput, deleteTeamInput, deletionCheckSchema } from '../data-rights.ts'
import { defineOperations, idParam } from './operation.ts'

const exportParams = z.object({ id: idParam('account.exportNotFound') })

export const dataRightsOperations = defineOperations(
  'dataRights',
  {
    title: 'Data rights',
    description:
      'Take your data with you and be forgotten: an export of everything you wrote (built in the ' +
      'background, downloaded once), deleting your account, and deleting a team (team admins).',
  },
  {
    startExport: {
      method: 'POST',
      path: '/v1/me/exports',
      summary: 'Start an export of my data (or return the one still being built)',
      access: 'signed-in',
      response: dataExportSchema,
      created: true,
    },
    latestExport: {
      method: 'GET',
      path: '/v1/me/exports/latest',
      summary: 'My latest export and its progress, or null',
      access: 'signed-in',
      response: z.object({ export: dataExportSchema.nullable() }),
    },
    downloadExport: {
      method: 'GET',
      path: '/v1/me/exports/:id/archive',
      summary:
        'The export as one JSON document (profile, prompts with every version, conversations, teams, ' +
        'sessions, keys, and each prompt as Markdown). Offered once: afterwards 409',
      access: 'signed-in',
      params: exportParams,
      response: z.record(z.string(), z.unknown()),
      errors: ['conflict'],
    },
    deletionCheck: {
      method: 'GET',
      path: '/v1/me/deletion',
      summary: 'What deleting my account would remove, how to confirm it, and what stops it',
      access: 'signed-in',
      response: deletionCheckSchema,
    },
    sendDeletionCode: {
      method: 'POST',
      path: '/v1/me/deletion-code',
      summary: 'Mail a 6-digit code to confirm deleting an account that has no password',
      access: 'signed-in',
      response: z.object({ sent: z.literal(true) }),
      errors: ['conflict', 'rate_limited'],
    },
    deleteAccount: {
      method: 'POST',
      path: '/v1/me/deletion',
      summary:
        'Delete my account, confirmed with my password or the mailed code. Personal prompts, ' +
        'conversations, sessions and keys go; what I shared with a team stays as from "Deleted user"',
      access: 'signed-in',
      body: deleteAccountInput,
      response: null,
      errors: ['conflict', 'rate_limited'],
    },
    deleteTeam: {
      method: 'DELETE',
      path: '/v1/teams/:teamId',
      summary:
        'Delete a team with its prompts, conversations, invitations and keys (team admins; confirmed by its name)',
      access: 'signed-in',
      params: z.object({ teamId: idParam('teams.notFound') }),
      body: deleteTeamInput,
      response: null,
      errors: ['forbidden'],
      permission: 'team.manage_team',
    },
  },
)
