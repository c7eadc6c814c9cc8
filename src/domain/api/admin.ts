import { z } from 'zod'
import {
  adminProbesQuery,
  adminProbesSchema,
  adminTeamsPageSchema,
  adminTeamsQuery,
  adminUserSchema,
  adminUsersPageSchema,
  adminUsersQuery,
  buildStatusSchema,
  codeSignInProbeSchema,
  setGlobalRoleInput,
  systemHealthSchema,
  systemStatsSchema,
} from '../admin.ts'
import { defineOperations, idParam } from './operation.ts'

const userParams = z.object({ userId: idParam('admin.userNotFound') })

/**
 * The global admin area (`/admin`, `/build-status`, the diagnostics pages). Every operation is for
 * global admins only: 403 'Global admin access required' for everyone else. A user's plan is set
 * with `PUT /v1/admin/plans` (Plans).
 */
export const adminOperations = defineOperations(
  'admin',
  {
    title: 'Admin',
    description:
      'Live figures, users and the global role, every team, system health and the build report (global admins).',
  },
  {
    stats: {
      method: 'GET',
      path: '/v1/admin/stats',
      summary:
        'Total users, teams and prompts, active users of the last 720 hours, and sign-ups per day of the last 30 days',
      access: 'global-admin',
      response: systemStatsSchema,
    },
    users: {
      method: 'GET',
      path: '/v1/admin/users',
      summary:
        'Every account, newest first (cursor pages), with its global role, teams and plan; `search` matches the email',
      access: 'global-admin',
      query: adminUsersQuery,
      response: adminUsersPageSchema,
    },
    teams: {
      method: 'GET',
      path: '/v1/admin/teams',
      summary:
        'Every team, newest first (cursor pages), with its members, admins, plan, prompts and conversations; `search` matches the name. A global admin manages any team through the Teams operations',
      access: 'global-admin',
      query: adminTeamsQuery,
      response: adminTeamsPageSchema,
      permission: 'admin.viewAllTeams',
    },
    setRole: {
      method: 'PUT',
      path: '/v1/admin/users/:userId/role',
      summary:
        'Grant or revoke the global role. The last global admin cannot be demoted; demoting yourself needs `confirmSelf`',
      access: 'global-admin',
      params: userParams,
      body: setGlobalRoleInput,
      response: adminUserSchema,
      errors: ['conflict'],
      permission: 'admin.manageGlobalRoles',
    },
    health: {
      method: 'GET',
      path: '/v1/admin/health',
      summary:
        "Database kind, version and latency, each read replica's state and lag, migrations, mail transport and outbox backlog, uptime, memory, version and commit",
      access: 'global-admin',
      response: systemHealthSchema,
    },
    buildStatus: {
      method: 'GET',
      path: '/v1/admin/build-status',
      summary:
        'The build report made now from live checks, and the 10 latest saved reports (a report is saved when its counts change)',
      access: 'global-admin',
      response: buildStatusSchema,
    },
    probes: {
      method: 'GET',
      path: '/v1/admin/probes',
      summary:
        'Diagnostics: a count query on conversations and the members lookup of a team (`teamId`, else your first team), each timed',
      access: 'global-admin',
      query: adminProbesQuery,
      response: adminProbesSchema,
    },
    probeCodeSignIn: {
      method: 'POST',
      path: '/v1/admin/probes/code-sign-in',
      summary: 'Diagnostics: send a sign-in code to your own address, as the code sign-in does, and time it',
      access: 'global-admin',
      response: codeSignInProbeSchema,
      errors: ['rate_limited'],
    },
  },
)
