import { z } from 'zod'
import { emailSchema } from './auth.ts'
import { OUTBOX_PAGE } from './constants.ts'
import { cursorParam, limitParam } from './list-params.ts'

export const mailStatuses = ['pending', 'sent', 'logged', 'failed'] as const
export type MailStatus = (typeof mailStatuses)[number]

/** A row of the mail outbox as the email debug page lists it. */
export const outboxItemSchema = z.object({
  id: z.string(),
  kind: z.string(),
  to: z.string(),
  subject: z.string(),
  status: z.enum(mailStatuses),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
  nextAttemptAt: z.string(),
})
export type OutboxItem = z.infer<typeof outboxItemSchema>

export const outboxDetailSchema = outboxItemSchema.extend({ text: z.string(), html: z.string().nullable() })
export type OutboxDetail = z.infer<typeof outboxDetailSchema>

export const outboxOverviewSchema = z.object({
  /** Mail leaves the server by SMTP; otherwise it is only logged (and readable here). */
  smtpConfigured: z.boolean(),
  from: z.string(),
  counts: z.record(z.enum(mailStatuses), z.number().int()),
  items: z.array(outboxItemSchema),
  nextCursor: z.string().nullable(),
})
export type OutboxOverview = z.infer<typeof outboxOverviewSchema>

export const outboxQuery = z.object({
  status: z.enum(mailStatuses, { error: 'error.invalidValue' }).optional(),
  to: z
    .string({ error: 'error.invalidValue' })
    .trim()
    .toLowerCase()
    .max(254, 'error.invalidValue')
    .optional(),
  cursor: cursorParam.optional(),
  limit: limitParam(OUTBOX_PAGE),
})

export const mailTestInput = z.object({ to: emailSchema })
