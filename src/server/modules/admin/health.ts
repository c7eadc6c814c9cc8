import { sql } from 'drizzle-orm'
import type { SystemHealth } from '../../../domain/admin.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/client.ts'
import { migrationNames } from '../../db/migrate.ts'
import { queryRows, type SqlTimestamp } from '../../db/rows.ts'
import { appCommit, processUptime } from './build-info.ts'

export type HealthConfig = Pick<Config, 'smtpUrl' | 'mailFrom' | 'version'>

interface OutboxRow extends Record<string, unknown> {
  pending: number | string
  oldest_pending: SqlTimestamp | null
  failed: number | string
  failed_recent: number | string
}

/** The System Health tab: everything read now, nothing remembered. */
export async function getSystemHealth(database: Database, config: HealthConfig): Promise<SystemHealth> {
  const { db } = database
  const latencyMs = await database.ping()
  const [version] = await queryRows<{ version: string }>(
    db,
    sql`SELECT current_setting('server_version') AS version`,
  )
  const applied = new Set(
    (await queryRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations`)).map((row) => row.name),
  )
  const known = migrationNames()
  const [outbox] = await queryRows<OutboxRow>(
    db,
    sql`SELECT
          (SELECT count(*) FROM mail_outbox WHERE status = 'pending') AS pending,
          (SELECT min(created_at) FROM mail_outbox WHERE status = 'pending') AS oldest_pending,
          (SELECT count(*) FROM mail_outbox WHERE status = 'failed') AS failed,
          (SELECT count(*) FROM mail_outbox WHERE status = 'failed' AND created_at >= now() - interval '24 hours') AS failed_recent`,
  )
  const memory = process.memoryUsage()
  const uptime = processUptime()
  return {
    checkedAt: new Date().toISOString(),
    database: {
      kind: database.kind,
      version: version?.version ?? 'unknown',
      latencyMs,
      replicas: database.replicas?.statuses() ?? [],
    },
    migrations: {
      applied: applied.size,
      known: known.length,
      latest: [...applied].sort().at(-1) ?? null,
      pending: known.filter((name) => !applied.has(name)),
    },
    mail: {
      transport: config.smtpUrl ? 'smtp' : 'log',
      from: config.mailFrom,
      pending: Number(outbox?.pending ?? 0),
      oldestPendingAt: outbox?.oldest_pending ? new Date(outbox.oldest_pending).toISOString() : null,
      failed: Number(outbox?.failed ?? 0),
      failedLast24h: Number(outbox?.failed_recent ?? 0),
    },
    process: {
      uptimeSeconds: uptime.uptimeSeconds,
      startedAt: uptime.startedAt,
      nodeVersion: process.version,
      memory: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed, heapTotalBytes: memory.heapTotal },
    },
    app: { version: config.version, commit: appCommit() },
  }
}
