import { profileUpdateInput } from '../../../domain/profile.ts'
import type { ApiTag } from '../../http/openapi.ts'

export const profileApiDoc: ApiTag = {
  name: 'Account',
  description: 'Who is signed in, and their profile settings.',
  operations: [
    {
      method: 'get',
      path: '/v1/session',
      summary: 'The signed-in user, or `{ user: null }`',
      access: 'public',
      success: { status: 200, description: '`{ user }`' },
    },
    {
      method: 'get',
      path: '/v1/sessions',
      summary: 'My live sessions, newest first, the current one marked (never with their tokens)',
      access: 'signed-in',
      success: { status: 200, description: '`{ items }`' },
    },
    {
      method: 'get',
      path: '/v1/me',
      summary: 'The signed-in user',
      access: 'signed-in',
      success: { status: 200, description: '`{ user }`' },
    },
    {
      method: 'get',
      path: '/v1/profile',
      summary: 'My profile settings',
      access: 'signed-in',
      success: { status: 200, description: '`{ profile }`' },
    },
    {
      method: 'patch',
      path: '/v1/profile',
      summary: 'Change some profile settings (only the fields sent)',
      access: 'signed-in',
      body: profileUpdateInput,
      success: { status: 200, description: '`{ profile }`' },
    },
  ],
}
