import { z } from 'zod'
import {
  billingSpaceSchema,
  choosePlanInput,
  choosePlanResultSchema,
  entitlementsQuery,
  entitlementsSchema,
  grantPlanInput,
  planRequestSchema,
  planRequestsQuery,
} from '../plans.ts'
import { defineOperations, idParam, pageOf } from './operation.ts'

const requestParams = z.object({ requestId: idParam('plans.requestNotFound') })

export const planOperations = defineOperations(
  'plans',
  {
    title: 'Plans',
    description:
      'Plans, trials and entitlements. A subject (my personal space, or a team) is in its ' +
      '14-day trial, then `payment_required` until a plan is chosen. Gated writes answer 403 ' +
      '`plan_limit` with `planLimit: { context, reason, resource, used, max }`.',
  },
  {
    entitlements: {
      method: 'GET',
      path: '/v1/me/entitlements',
      summary:
        'State, plan, limits, usage and trial days left of my personal space, or of a team I belong to (`teamId`)',
      access: 'signed-in',
      query: entitlementsQuery,
      response: entitlementsSchema,
      errors: ['not_found'],
      permission: 'team.view_team_data',
    },
    billing: {
      method: 'GET',
      path: '/v1/billing',
      summary:
        'The spaces whose plan I manage (personal, and each team I administer) with their plan requests',
      access: 'signed-in',
      response: pageOf(billingSpaceSchema),
    },
    choose: {
      method: 'POST',
      path: '/v1/billing/plan',
      summary:
        'Choose a plan for my personal space or a team I administer: Free at once; Pro and Team through ' +
        'the billing provider (a pending request)',
      access: 'signed-in',
      body: choosePlanInput,
      response: choosePlanResultSchema,
      errors: ['forbidden', 'conflict', 'not_found'],
      permission: 'team.manage_team',
    },
    cancelRequest: {
      method: 'DELETE',
      path: '/v1/billing/requests/:requestId',
      summary: 'Withdraw a pending plan request',
      access: 'signed-in',
      params: requestParams,
      response: null,
      errors: ['forbidden', 'conflict'],
      permission: 'team.manage_team',
    },
    adminRequests: {
      method: 'GET',
      path: '/v1/admin/plan-requests',
      summary: 'Plan requests of every user and team, newest first (global admins)',
      access: 'global-admin',
      query: planRequestsQuery,
      response: pageOf(planRequestSchema),
    },
    adminSetPlan: {
      method: 'PUT',
      path: '/v1/admin/plans',
      summary:
        "Set (grant) or take away any user's or team's plan; a pending request for that plan is granted " +
        'and its requester told by mail (global admins)',
      access: 'global-admin',
      body: grantPlanInput,
      response: entitlementsSchema,
      errors: ['not_found'],
    },
  },
)
