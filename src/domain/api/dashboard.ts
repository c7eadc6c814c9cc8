import { dashboardQuery, dashboardSchema } from '../dashboard.ts'
import { defineOperations } from './operation.ts'

export const dashboardOperations = defineOperations(
  'dashboard',
  {
    title: 'Dashboard',
    description:
      'The working dashboard’s figures for one context: personal (no `teamId`) or one of the ' +
      "caller's teams. A team the caller is not in answers 404 'Team not found or access denied'.",
  },
  {
    get: {
      method: 'GET',
      path: '/v1/dashboard',
      summary:
        'Continue items, onboarding checklist and progress, streak, pulse (7 days and the week ' +
        'before), team milestone and milestones, weekly activity, most used and most revised prompts',
      access: 'signed-in',
      query: dashboardQuery,
      response: dashboardSchema,
      errors: ['not_found'],
      permission: 'team.view_team_data',
    },
  },
)
