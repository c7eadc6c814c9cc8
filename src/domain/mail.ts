import { z } from 'zod'
import { emailSchema } from './auth.ts'

export const mailStatuses = ['pending', 'sent', 'logged', 'failed'] as const
export type MailStatus = (typeof mailStatuses)[number]

/** A row of the mail outbox as the email debug page lists it. */
export interface OutboxItem {
  id: string
  kind: string
  to: string
  subject: string
  status: MailStatus
  attempts: number
  lastError: string | null
  createdAt: string
  sentAt: string | null
  nextAttemptAt: string
}

export interface OutboxDetail extends OutboxItem {
  text: string
  html: string | null
}

export interface OutboxOverview {
  /** Mail leaves the server by SMTP; otherwise it is only logged (and readable here). */
  smtpConfigured: boolean
  from: string
  counts: Record<MailStatus, number>
  items: OutboxItem[]
}

export const outboxQuery = z.object({
  status: z.enum(mailStatuses).optional(),
  to: z.string().trim().toLowerCase().max(254).optional(),
})

export const mailTestInput = z.object({ to: emailSchema })
export type MailTestInput = z.input<typeof mailTestInput>
