import { readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { desc, sql } from 'drizzle-orm'
import {
  BUILD_REPORT_HISTORY,
  type BuildArea,
  type BuildItem,
  type BuildReport,
  type BuildStatus,
  overallStatusOf,
  type SavedBuildReport,
  sameCounts,
  summarize,
} from '../../../domain/admin.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/client.ts'
import { migrationNames } from '../../db/migrate.ts'
import { queryRows } from '../../db/rows.ts'
import { buildReports } from '../../db/schema/index.ts'
import { countFailedSignIns } from '../auth/index.ts'
import { appCommit, processUptime, startFlagsOfProcess } from './build-info.ts'

export type BuildConfig = Pick<
  Config,
  'appUrl' | 'adminEmail' | 'smtpUrl' | 'google' | 'apple' | 'dataDir' | 'version' | 'env'
>

const DAY_MS = 24 * 60 * 60 * 1000
/** Failed sign-ins per day above which the sign-in area is only partly healthy. */
const FAILED_SIGN_INS_ALERT = 50
/** Mail waiting longer than this means delivery is stuck. */
const OUTBOX_STUCK_MS = 15 * 60 * 1000
/** An embedded database's newest backup should be younger than this. */
const BACKUP_MAX_AGE_MS = 7 * DAY_MS

const item = (
  key: string,
  status: BuildItem['status'],
  priority: BuildItem['priority'],
  evidence: string,
): BuildItem => ({ key, status, priority, evidence })

/** The newest file in DATA_DIR/backups, if any. */
function newestBackup(dataDir: string): Date | null {
  try {
    const dir = path.join(dataDir, 'backups')
    const times = readdirSync(dir).map((name) => statSync(path.join(dir, name)).mtimeMs)
    return times.length > 0 ? new Date(Math.max(...times)) : null
  } catch {
    return null
  }
}

/** The checks the server runs for the build report, grouped by area. */
async function runChecks(
  database: Database,
  config: BuildConfig,
  now: Date,
): Promise<{ areas: BuildArea[]; failed: number }> {
  const { db } = database
  const dbArea: BuildItem[] = []
  let reachable = true
  try {
    const ms = await database.ping()
    dbArea.push(item('database.reachable', 'completed', 'high', `${database.kind}, ${ms} ms`))
  } catch (error) {
    reachable = false
    dbArea.push(item('database.reachable', 'missing', 'high', (error as Error).message))
  }
  const applied = reachable
    ? new Set(
        (await queryRows<{ name: string }>(db, sql`SELECT name FROM schema_migrations`)).map((r) => r.name),
      )
    : new Set<string>()
  const pending = migrationNames().filter((name) => !applied.has(name))
  dbArea.push(
    item(
      'database.migrations',
      pending.length === 0 ? 'completed' : 'missing',
      'high',
      pending.length === 0 ? `${applied.size}` : pending.join(', '),
    ),
  )
  if (database.kind === 'pglite') {
    const backup = newestBackup(config.dataDir)
    dbArea.push(
      item(
        'database.backups',
        backup === null
          ? 'missing'
          : now.getTime() - backup.getTime() <= BACKUP_MAX_AGE_MS
            ? 'completed'
            : 'partial',
        'medium',
        backup === null ? path.join(config.dataDir, 'backups') : backup.toISOString(),
      ),
    )
  }

  const [counts] = await queryRows<{
    admins: number | string
    stuck: number | string
    failed: number | string
  }>(
    db,
    sql`SELECT
          (SELECT count(*) FROM users WHERE role = 'global_admin') AS admins,
          (SELECT count(*) FROM mail_outbox WHERE status = 'pending'
             AND created_at < ${new Date(now.getTime() - OUTBOX_STUCK_MS).toISOString()}) AS stuck,
          (SELECT count(*) FROM mail_outbox WHERE status = 'failed'
             AND created_at >= ${new Date(now.getTime() - DAY_MS).toISOString()}) AS failed`,
  )
  const admins = Number(counts?.admins ?? 0)
  const stuck = Number(counts?.stuck ?? 0)
  const failedMail = Number(counts?.failed ?? 0)
  const failed = await countFailedSignIns(db, new Date(now.getTime() - DAY_MS))

  const auth: BuildItem[] = [
    item('auth.adminExists', admins > 0 ? 'completed' : 'missing', 'high', `${admins}`),
    item(
      'auth.adminEmail',
      config.adminEmail ? 'completed' : 'partial',
      'medium',
      config.adminEmail ?? 'ADMIN_EMAIL',
    ),
    item(
      'auth.google',
      config.google ? 'completed' : 'missing',
      'low',
      config.google?.issuer ?? 'GOOGLE_CLIENT_ID',
    ),
    item(
      'auth.apple',
      config.apple ? 'completed' : 'missing',
      'low',
      config.apple ? 'configured' : 'APPLE_CLIENT_ID',
    ),
    item(
      'auth.failedSignIns',
      failed <= FAILED_SIGN_INS_ALERT ? 'completed' : 'partial',
      'medium',
      `${failed}`,
    ),
  ]
  const mail: BuildItem[] = [
    item(
      'mail.transport',
      config.smtpUrl ? 'completed' : 'partial',
      'medium',
      config.smtpUrl ? 'SMTP' : 'log',
    ),
    item('mail.backlog', stuck === 0 ? 'completed' : 'partial', 'medium', `${stuck}`),
    item('mail.failures', failedMail === 0 ? 'completed' : 'partial', 'medium', `${failedMail}`),
  ]
  const commit = appCommit()
  const startFlags = startFlagsOfProcess()
  const app: BuildItem[] = [
    item(
      'app.https',
      config.appUrl.startsWith('https://') ? 'completed' : 'partial',
      'medium',
      config.appUrl,
    ),
    item('app.production', config.env === 'production' ? 'completed' : 'partial', 'low', config.env),
    item('app.commit', commit ? 'completed' : 'missing', 'low', commit ?? 'APP_COMMIT'),
    item(
      'app.nodeFlags',
      startFlags?.missing.length === 0 ? 'completed' : 'partial',
      'medium',
      // The flags it lacks, or those it has.
      startFlags === null
        ? 'package.json'
        : (startFlags.missing.length > 0 ? startFlags.missing : startFlags.flags).join(' '),
    ),
  ]
  return {
    areas: [
      { area: 'database', items: dbArea },
      { area: 'auth', items: auth },
      { area: 'mail', items: mail },
      { area: 'app', items: app },
    ],
    failed,
  }
}

function toSaved(row: typeof buildReports.$inferSelect): SavedBuildReport {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    version: row.version,
    commit: row.commit,
    overallStatus: row.overallStatus,
    summary: {
      total: row.total,
      completed: row.completed,
      partial: row.partial,
      missing: row.missing,
      highPriorityMissing: row.highPriorityMissing,
    },
  }
}

/**
 * /build-status: a report made now from the checks above. It is saved when its counts differ from
 * the latest saved one (under a lock, so two admins opening the page at once save it once), and
 * only the newest 10 are kept.
 */
export async function getBuildStatus(
  database: Database,
  config: BuildConfig,
  now = new Date(),
): Promise<BuildStatus> {
  const { areas, failed } = await runChecks(database, config, now)
  const summary = summarize(areas)
  const uptime = processUptime()
  const current: BuildReport = {
    generatedAt: now.toISOString(),
    version: config.version,
    commit: appCommit(),
    uptimeSeconds: uptime.uptimeSeconds,
    failedSignInsLast24h: failed,
    overallStatus: overallStatusOf(summary),
    summary,
    areas,
  }
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('promptfolio.build-reports'))`)
    const [latest] = await tx
      .select()
      .from(buildReports)
      .orderBy(desc(buildReports.createdAt), desc(buildReports.id))
      .limit(1)
    const saved = !latest || !sameCounts(toSaved(latest).summary, summary)
    if (saved) {
      await tx.insert(buildReports).values({
        version: current.version,
        commit: current.commit,
        overallStatus: current.overallStatus,
        ...summary,
        report: current,
      })
      await tx.execute(
        sql`DELETE FROM build_reports WHERE id NOT IN (
              SELECT id FROM build_reports ORDER BY created_at DESC, id DESC LIMIT ${BUILD_REPORT_HISTORY})`,
      )
    }
    const history = await tx
      .select()
      .from(buildReports)
      .orderBy(desc(buildReports.createdAt), desc(buildReports.id))
      .limit(BUILD_REPORT_HISTORY)
    return { current, saved, history: history.map(toSaved) }
  })
}
