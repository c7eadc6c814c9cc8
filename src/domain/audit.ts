import { z } from 'zod'
import { cursorParam, limitParam } from './list-params.ts'

/**
 * The audit log: one append-only row per security-relevant action, written in the
 * transaction of the action itself (decision 0145). The actions form a closed list; a new kind of
 * entry is added here first.
 */
export const auditActions = [
  'auth.sign_in.succeeded',
  'auth.sign_in.failed',
  'auth.sign_out_everywhere',
  'auth.password_reset',
  'account.deleted',
  'global_role.granted',
  'global_role.revoked',
  'plan.changed',
  'team.created',
  'team.renamed',
  'team.deleted',
  'member.invited',
  'member.joined',
  'member.removed',
  'member.left',
  'member.role_changed',
  'invitation.revoked',
  'prompt.created',
  'prompt.deleted',
  'label.moved',
  'api_key.created',
  'api_key.revoked',
  'webhook.endpoint.created',
  'webhook.endpoint.changed',
  'webhook.endpoint.deleted',
  'model.provider.created',
  'model.provider.changed',
  'model.provider.deleted',
  'prompt.run',
  'conversation.reply',
] as const
export type AuditAction = (typeof auditActions)[number]

/** Who acted: a signed-in user, an API key (acting as its user), the server itself, or nobody signed in. */
export const auditActorKinds = ['user', 'api_key', 'system', 'anonymous'] as const
export type AuditActorKind = (typeof auditActorKinds)[number]

/** What an entry is about. */
export const auditObjectTypes = [
  'user',
  'session',
  'team',
  'membership',
  'invitation',
  'prompt',
  'label',
  'api_key',
  'plan',
  'webhook_endpoint',
  'model_provider',
  'conversation',
] as const
export type AuditObjectType = (typeof auditObjectTypes)[number]

/** A JSON object kept as an entry's before or after state (never a secret). */
export type AuditState = Record<string, unknown>

/** What a service hands to `recordAudit`, besides the actor. */
export interface AuditEntryInput {
  action: AuditAction
  objectType: AuditObjectType
  objectId?: string | null
  teamId?: string | null
  before?: AuditState | null
  after?: AuditState | null
}

export const auditEntrySchema = z.object({
  id: z.uuid(),
  createdAt: z.string(),
  actorKind: z.enum(auditActorKinds),
  actorUserId: z.string().nullable(),
  actorApiKeyId: z.string().nullable(),
  /** The actor's email when the entry was written (kept if the account goes). */
  actorEmail: z.string().nullable(),
  action: z.enum(auditActions),
  objectType: z.enum(auditObjectTypes),
  objectId: z.string().nullable(),
  teamId: z.string().nullable(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
  clientAddress: z.string().nullable(),
})
export type AuditEntry = z.infer<typeof auditEntrySchema>

export const AUDIT_PAGE = { default: 50, max: 200 } as const
/** Rows one CSV export holds at most; the answer says when there were more. */
export const AUDIT_EXPORT_MAX_ROWS = 10_000

const optionalText = (max: number) =>
  z
    .string({ error: 'audit.filterInvalid' })
    .trim()
    .max(max, 'audit.filterInvalid')
    .optional()
    .transform((value) => (value ? value : undefined))

const optionalTime = z
  .string({ error: 'audit.timeInvalid' })
  .trim()
  .optional()
  .transform((value, ctx) => {
    if (!value) return undefined
    const time = new Date(value)
    if (Number.isNaN(time.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
      ctx.addIssue({ code: 'custom', message: 'audit.timeInvalid' })
      return z.NEVER
    }
    return time.toISOString()
  })

/** The filters both lists and both exports take. */
export const auditFilterQuery = z.object({
  /** An email (exact, any case), a user id or an API key id. */
  actor: optionalText(254),
  action: z
    .union([z.literal(''), z.enum(auditActions)], { error: 'audit.actionInvalid' })
    .optional()
    .transform((value) => (value ? value : undefined)),
  /** ISO date-times, both inclusive. */
  from: optionalTime,
  to: optionalTime,
})

/** The global list also filters by team. */
export const globalAuditFilterQuery = auditFilterQuery.extend({
  teamId: z
    .union([z.literal(''), z.uuid({ error: 'audit.filterInvalid' })], { error: 'audit.filterInvalid' })
    .optional()
    .transform((value) => (value ? value : undefined)),
})

const pageQuery = { limit: limitParam(AUDIT_PAGE), cursor: cursorParam.optional() }
export const auditListQuery = auditFilterQuery.extend(pageQuery)
export const globalAuditListQuery = globalAuditFilterQuery.extend(pageQuery)
export type AuditFilters = z.output<typeof globalAuditFilterQuery>

/** A team the global log can be filtered by, offered by name rather than by id. */
export const auditTeamSchema = z.object({ id: z.uuid(), name: z.string() })
export type AuditTeam = z.infer<typeof auditTeamSchema>
/** Teams the filter offers at most, by name. */
export const AUDIT_TEAM_CHOICES_MAX = 1000

export const auditExportSchema = z.object({
  filename: z.string(),
  csv: z.string(),
  rowCount: z.number().int(),
  /** More rows matched than one export holds (AUDIT_EXPORT_MAX_ROWS); narrow the filters. */
  truncated: z.boolean(),
})
export type AuditExport = z.infer<typeof auditExportSchema>

export const auditCsvColumns = [
  'created_at',
  'action',
  'actor_kind',
  'actor_email',
  'actor_user_id',
  'actor_api_key_id',
  'object_type',
  'object_id',
  'team_id',
  'client_address',
  'before',
  'after',
] as const

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. A
 * cell a spreadsheet would read as a formula (starting with = + - @, or a tab or carriage return)
 * gets a leading apostrophe first, so opening an export never runs what a user typed.
 */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = typeof value === 'string' ? value : JSON.stringify(value)
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The export's text: a header line and one line per entry, CRLF line ends. */
export function auditCsv(entries: readonly AuditEntry[]): string {
  const lines = [auditCsvColumns.join(',')]
  for (const entry of entries) {
    lines.push(
      [
        entry.createdAt,
        entry.action,
        entry.actorKind,
        entry.actorEmail,
        entry.actorUserId,
        entry.actorApiKeyId,
        entry.objectType,
        entry.objectId,
        entry.teamId,
        entry.clientAddress,
        entry.before,
        entry.after,
      ]
        .map(csvCell)
        .join(','),
    )
  }
  return `${lines.join('\r\n')}\r\n`
}
