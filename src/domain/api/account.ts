import { z } from 'zod'
import { currentUserSchema, sessionSummarySchema } from '../auth.ts'
import { profileSchema, profileUpdateInput } from '../profile.ts'
import { defineOperations, pageOf } from './operation.ts'

export const accountOperations = defineOperations(
  'account',
  { title: 'Account', description: 'Who is signed in, their sessions and their profile settings.' },
  {
    session: {
      method: 'GET',
      path: '/v1/session',
      summary: 'The signed-in user, or `{ user: null }` (the web app asks this on every load)',
      access: 'public',
      response: z.object({ user: currentUserSchema.nullable() }),
    },
    sessions: {
      method: 'GET',
      path: '/v1/sessions',
      summary: 'My live sessions, newest first, the current one marked (never with their tokens)',
      access: 'signed-in',
      response: pageOf(sessionSummarySchema),
    },
    me: {
      method: 'GET',
      path: '/v1/me',
      summary: 'The signed-in user',
      access: 'signed-in',
      response: currentUserSchema,
    },
    profile: {
      method: 'GET',
      path: '/v1/profile',
      summary: 'My profile settings',
      access: 'signed-in',
      response: profileSchema,
    },
    updateProfile: {
      method: 'PATCH',
      path: '/v1/profile',
      summary: 'Change some profile settings (only the fields sent)',
      access: 'signed-in',
      body: profileUpdateInput,
      response: profileSchema,
    },
  },
)
