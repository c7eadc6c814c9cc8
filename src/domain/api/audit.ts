import { z } from 'zod'
import {
  auditEntrySchema,
  auditExportSchema,
  auditFilterQuery,
  auditListQuery,
  auditTeamSchema,
  globalAuditFilterQuery,
  globalAuditListQuery,
} from '../audit.ts'
import { defineOperations, idParam, pageOf } from './operation.ts'

const teamParams = z.object({ teamId: idParam('teams.notFound') })

export const auditOperations = defineOperations(
  'audit',
  {
    title: 'Audit log',
    description:
      'The append-only record of security-relevant actions (sign-ins, roles, plans, teams, members, ' +
      'invitations, deleted prompts, label moves, API keys, webhooks): who, what, which object, ' +
      'which team, before and after, from which address. Global admins read all of it; team ' +
      'admins their team’s entries. Filter by actor (email or id), action, team and time; ' +
      'paged by cursor, newest first; exportable as CSV.',
  },
  {
    list: {
      method: 'GET',
      path: '/v1/audit-log',
      summary: 'Every entry, newest first (global admins)',
      access: 'global-admin',
      query: globalAuditListQuery,
      response: pageOf(auditEntrySchema),
    },
    export: {
      method: 'GET',
      path: '/v1/audit-log/export',
      summary: 'The entries the filters match, as CSV text (global admins)',
      access: 'global-admin',
      query: globalAuditFilterQuery,
      response: auditExportSchema,
    },
    teams: {
      method: 'GET',
      path: '/v1/audit-log/teams',
      summary: 'The teams the global log can be filtered by, by name (global admins)',
      access: 'global-admin',
      response: z.object({ items: z.array(auditTeamSchema) }),
    },
    teamList: {
      method: 'GET',
      path: '/v1/teams/:teamId/audit-log',
      summary: 'A team’s entries, newest first (team admins)',
      access: 'signed-in',
      params: teamParams,
      query: auditListQuery,
      response: pageOf(auditEntrySchema),
      errors: ['forbidden'],
      permission: 'team.manage_team',
    },
    teamExport: {
      method: 'GET',
      path: '/v1/teams/:teamId/audit-log/export',
      summary: 'A team’s entries the filters match, as CSV text (team admins)',
      access: 'signed-in',
      params: teamParams,
      query: auditFilterQuery,
      response: auditExportSchema,
      errors: ['forbidden'],
      permission: 'team.manage_team',
    },
  },
)
