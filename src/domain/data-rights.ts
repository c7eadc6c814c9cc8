import { z } from 'zod'
import { loginCodeSchema } from './auth.ts'
import { PASSWORD_MAX } from './constants.ts'
import type { ExportedPrompt } from './prompt-transfer.ts'

/**
 * Leaving cleanly: exporting one's data, deleting one's account, deleting a team.
 * The rules of what goes and what stays are decision 0180.
 */

export const exportStatuses = ['pending', 'running', 'ready', 'downloaded', 'failed'] as const
export type ExportStatus = (typeof exportStatuses)[number]

/** An export as its owner sees it: how far it is, and whether it can still be downloaded. */
export const dataExportSchema = z.object({
  id: z.uuid(),
  status: z.enum(exportStatuses),
  /** Prompts and conversations written so far, of `total`. */
  done: z.number().int(),
  total: z.number().int(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  downloadedAt: z.string().nullable(),
})
export type DataExport = z.infer<typeof dataExportSchema>

/** The export's format version: the import reads this document. */
export const EXPORT_FORMAT = 'promptfolio.export/1'

/** The document an export downloads; `markdown` holds each prompt as a Markdown file for Git. */
export interface ExportArchive {
  format: typeof EXPORT_FORMAT
  exportedAt: string
  profile: Record<string, unknown>
  prompts: ExportedPrompt[]
  conversations: Record<string, unknown>[]
  teams: { name: string; role: string; joinedAt: string | null }[]
  sessions: Record<string, unknown>[]
  apiKeys: Record<string, unknown>[]
  /** Audit entries about the user (newest first, at most 10,000). */
  audit: Record<string, unknown>[]
  markdown: Record<string, string>
}

/**
 * Deleting one's account is confirmed with the password, or, for an account without one, with a
 * code mailed to its address (`POST /v1/me/deletion-code`).
 */
export const deleteAccountInput = z
  .object({
    password: z.string({ error: 'account.confirmRequired' }).max(PASSWORD_MAX).optional(),
    code: loginCodeSchema.optional(),
  })
  .refine((input) => Boolean(input.password) || Boolean(input.code), {
    message: 'account.confirmRequired',
    path: ['password'],
  })

/** How the deletion page asks for confirmation, and what would stop it. */
export const deletionCheckSchema = z.object({
  /** 'password' when the account has one, else 'code' (mailed on request). */
  confirmWith: z.enum(['password', 'code']),
  /** Teams whose only admin the user is while others are members: hand them over or delete them first. */
  soleAdminOf: z.array(z.object({ id: z.uuid(), name: z.string() })),
  /** The installation's last global admin may not delete their account. */
  lastGlobalAdmin: z.boolean(),
  /** What goes: counts shown in the confirmation. */
  personalPrompts: z.number().int(),
  personalConversations: z.number().int(),
  teamPrompts: z.number().int(),
  apiKeys: z.number().int(),
})
export type DeletionCheck = z.infer<typeof deletionCheckSchema>

/** Deleting a team: confirmed by typing its name exactly. */
export const deleteTeamInput = z.object({
  confirmName: z.string({ error: 'teams.deleteConfirmMismatch' }).min(1, 'teams.deleteConfirmMismatch'),
})

/** The address a deleted account's tombstone gets: unique, and never deliverable (RFC 6761 .invalid). */
export function tombstoneEmail(userId: string): string {
  return `deleted-${userId}@deleted.invalid`
}
