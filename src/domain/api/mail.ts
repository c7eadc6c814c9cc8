import { z } from 'zod'
import {
  mailTestInput,
  outboxDetailSchema,
  outboxItemSchema,
  outboxOverviewSchema,
  outboxQuery,
} from '../mail.ts'
import { defineOperations, idParam } from './operation.ts'

const mailParams = z.object({ id: idParam('mail.notFound') })

export const mailOperations = defineOperations(
  'mail',
  { title: 'Mail outbox', description: 'Every mail the app wrote, sent or only logged (global admins).' },
  {
    outbox: {
      method: 'GET',
      path: '/v1/mail-outbox',
      summary: 'The mails, newest first (cursor pages of 50), with counts by status',
      access: 'global-admin',
      query: outboxQuery,
      response: outboxOverviewSchema,
    },
    get: {
      method: 'GET',
      path: '/v1/mail-outbox/:id',
      summary: 'One mail with its text and HTML',
      access: 'global-admin',
      params: mailParams,
      response: outboxDetailSchema,
    },
    sendTest: {
      method: 'POST',
      path: '/v1/mail-outbox/test',
      summary: 'Send a test mail',
      access: 'global-admin',
      body: mailTestInput,
      response: outboxItemSchema,
      created: true,
      errors: ['rate_limited'],
    },
    retry: {
      method: 'POST',
      path: '/v1/mail-outbox/:id/retry',
      summary: 'Queue a failed mail again',
      access: 'global-admin',
      params: mailParams,
      response: outboxItemSchema,
      errors: ['conflict'],
    },
  },
)
