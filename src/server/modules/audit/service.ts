import { and, asc, desc, eq, gte, lte, or, type SQL, sql } from 'drizzle-orm'
import {
  AUDIT_EXPORT_MAX_ROWS,
  AUDIT_TEAM_CHOICES_MAX,
  type AuditEntry,
  type AuditExport,
  type AuditFilters,
  type AuditTeam,
  auditCsv,
} from '../../../domain/audit.ts'
import type { Page } from '../../../domain/cursor.ts'
import { isUuid } from '../../../domain/ids.ts'
import { type Actor, authorizeTeam } from '../../core/team-access.ts'
import type { Db } from '../../db/client.ts'
import { cursorTimestamp, pageCondition, toPage } from '../../db/queries.ts'
import { auditLog, teams } from '../../db/schema/index.ts'

/** Where a list looks: everything (global admins), or one team's entries (its admins). */
export type AuditScope = { kind: 'global' } | { kind: 'team'; teamId: string }

const columns = {
  id: auditLog.id,
  createdAt: auditLog.createdAt,
  at: cursorTimestamp(auditLog.createdAt),
  actorKind: auditLog.actorKind,
  actorUserId: auditLog.actorUserId,
  actorApiKeyId: auditLog.actorApiKeyId,
  actorEmail: auditLog.actorEmail,
  action: auditLog.action,
  objectType: auditLog.objectType,
  objectId: auditLog.objectId,
  teamId: auditLog.teamId,
  before: auditLog.before,
  after: auditLog.after,
  clientAddress: auditLog.clientAddress,
}

type Row = { [K in keyof typeof columns]: unknown } & {
  id: string
  at: string
  createdAt: Date
}

function toEntry(row: Row): AuditEntry {
  const { at, createdAt, ...rest } = row
  return { ...(rest as Omit<AuditEntry, 'createdAt'>), createdAt: at }
}

/** The filters as SQL: actor by email (any case) or id, action, team, time range. */
function filterConditions(scope: AuditScope, filters: Partial<AuditFilters>): SQL | undefined {
  const conditions: (SQL | undefined)[] = []
  if (scope.kind === 'team') conditions.push(eq(auditLog.teamId, scope.teamId))
  else if (filters.teamId) conditions.push(eq(auditLog.teamId, filters.teamId))
  if (filters.actor) {
    const actor = filters.actor
    conditions.push(
      actor.includes('@')
        ? sql`lower(${auditLog.actorEmail}) = ${actor.toLowerCase()}`
        : or(eq(auditLog.actorUserId, actor), isUuid(actor) ? eq(auditLog.actorApiKeyId, actor) : undefined),
    )
  }
  if (filters.action) conditions.push(eq(auditLog.action, filters.action))
  if (filters.from) conditions.push(gte(auditLog.createdAt, new Date(filters.from)))
  if (filters.to) conditions.push(lte(auditLog.createdAt, new Date(filters.to)))
  return and(...conditions)
}

/** Team scope: the team's admins (and global admins); others 404/403 as every team operation. */
async function authorizeScope(db: Db, actor: Actor, scope: AuditScope): Promise<void> {
  if (scope.kind === 'team') await authorizeTeam(db, actor, scope.teamId, 'manage_team')
}

/** One page of entries, newest first. */
export async function listAuditEntries(
  db: Db,
  actor: Actor,
  scope: AuditScope,
  query: Partial<AuditFilters> & { limit: number; cursor?: string },
): Promise<Page<AuditEntry>> {
  await authorizeScope(db, actor, scope)
  const rows = await db
    .select(columns)
    .from(auditLog)
    .where(
      and(
        filterConditions(scope, query),
        pageCondition({ column: auditLog.createdAt, kind: 'timestamp' }, auditLog.id, query.cursor),
      ),
    )
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(query.limit + 1)
  return toPage(rows as Row[], query.limit, (row) => row.at, toEntry)
}

/** The entries the filters match as CSV, newest first, at most AUDIT_EXPORT_MAX_ROWS. */
export async function exportAuditEntries(
  db: Db,
  actor: Actor,
  scope: AuditScope,
  filters: Partial<AuditFilters>,
): Promise<AuditExport> {
  await authorizeScope(db, actor, scope)
  const rows = (await db
    .select(columns)
    .from(auditLog)
    .where(filterConditions(scope, filters))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(AUDIT_EXPORT_MAX_ROWS + 1)) as Row[]
  const entries = rows.slice(0, AUDIT_EXPORT_MAX_ROWS).map(toEntry)
  const day = new Date().toISOString().slice(0, 10)
  const prefix = scope.kind === 'team' ? `audit-log-team-${scope.teamId.slice(0, 8)}` : 'audit-log'
  return {
    filename: `${prefix}-${day}.csv`,
    csv: auditCsv(entries),
    rowCount: entries.length,
    truncated: rows.length > AUDIT_EXPORT_MAX_ROWS,
  }
}

/** The teams a global admin may filter the log by (every team), by name. */
export async function listAuditTeams(db: Db): Promise<{ items: AuditTeam[] }> {
  const items = await db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .orderBy(asc(teams.name), asc(teams.id))
    .limit(AUDIT_TEAM_CHOICES_MAX)
  return { items }
}
