import { z } from 'zod'
import { currentUserSchema, sessionSummarySchema } from '../auth.ts'
import { profileSchema, profileUpdateInput } from '../profile.ts'
import { accountAddresses } from './auth-addresses.ts'
import { defineOperations, pageOf } from './operation.ts'

export const accountOperations = defineOperations(
  'account',
  { title: 'Account', description: 'Who is signed in, their sessions and their profile settings.' },
  {
    session: {
      ...accountAddresses.session,
      summary: 'The signed-in user, or `{ user: null }` (the web app asks this on every load)',
      access: 'public',
      response: z.object({ user: currentUserSchema.nullable() }),
    },
    sessions: {
      ...accountAddresses.sessions,
      summary: 'My live sessions, newest first, the current one marked (never with their tokens)',
      access: 'signed-in',
      response: pageOf(sessionSummarySchema),
    },
    me: {
      ...accountAddresses.me,
      summary: 'The signed-in user',
      access: 'signed-in',
      response: currentUserSchema,
    },
    profile: {
      ...accountAddresses.profile,
      summary: 'My profile settings',
      access: 'signed-in',
      response: profileSchema,
    },
    updateProfile: {
      ...accountAddresses.updateProfile,
      summary: 'Change some profile settings (only the fields sent)',
      access: 'signed-in',
      body: profileUpdateInput,
      response: profileSchema,
    },
  },
)
