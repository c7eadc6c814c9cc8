import { mailTestInput, outboxQuery } from '../../../domain/mail.ts'
import type { ApiTag } from '../../http/openapi.ts'

export const mailApiDoc: ApiTag = {
  name: 'Mail outbox',
  description: 'Every mail the app wrote, sent or only logged (global admins).',
  operations: [
    {
      method: 'get',
      path: '/v1/mail-outbox',
      summary: 'The newest mails with counts by status',
      access: 'global-admin',
      query: outboxQuery,
      success: { status: 200, description: '`{ smtpConfigured, from, counts, items }`' },
    },
    {
      method: 'get',
      path: '/v1/mail-outbox/:id',
      summary: 'One mail with its text and HTML',
      access: 'global-admin',
      success: { status: 200, description: 'The mail' },
    },
    {
      method: 'post',
      path: '/v1/mail-outbox/test',
      summary: 'Send a test mail',
      access: 'global-admin',
      body: mailTestInput,
      success: { status: 201, description: '`{ id }` of the queued mail' },
      errors: ['rate_limited'],
    },
    {
      method: 'post',
      path: '/v1/mail-outbox/:id/retry',
      summary: 'Queue a failed mail again',
      access: 'global-admin',
      success: { status: 200, description: '`{ mail }`' },
      errors: ['conflict'],
    },
  ],
}
