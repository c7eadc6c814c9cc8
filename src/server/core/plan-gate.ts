import { type SQL, sql } from 'drizzle-orm'
import { AppError } from '../../domain/errors.ts'
import {
  type ChoosablePlanId,
  decide,
  type Entitlements,
  entitlementsOf,
  type GatedAction,
  type PlanLimitDetails,
  type PlanSubject,
  refusalMessageKey,
  subjectKeyOf,
} from '../../domain/plans.ts'
import type { Db, Tx } from '../db/client.ts'
import { queryRows, type SqlTimestamp } from '../db/rows.ts'

export interface GateOptions {
  /** An invitation that is being accepted or sent again: it is not counted as pending besides. */
  excludingInvitationId?: string
  /** How many the write adds of a counted resource (prompts an import's batch creates); 1 unless told. */
  adding?: number
}

/**
 * The entitlement gate. One per app: it knows whether plans are on
 * (PLANS) and what time it is (tests move its clock).
 *
 * `require` is THE check every gated write calls inside its own transaction, before it writes:
 * it takes the subject's row lock in `plan_subjects` (created on first use), so concurrent writers
 * of one subject take turns and the count it reads stays true until the write commits; it counts
 * the usage live and refuses with 403 `plan_limit` ({ context, reason, resource, used, max }),
 * localized. If the check itself cannot run the write is refused with 503: gating fails closed,
 * never lets a write through unchecked.
 *
 * Other modules call it the same way for features: `plans.require(tx, subject, 'apiAccess')` before
 * creating an API key, `plans.require(tx, subject, 'webhooks')` before creating a webhook endpoint,
 * and 'createPrompt' / 'editPrompt' for public-API writes of prompts.
 */
export interface PlanGate {
  readonly enabled: boolean
  now(): Date
  require(tx: Tx, subject: PlanSubject, action: GatedAction, options?: GateOptions): Promise<void>
  /** The subject's entitlements, read without a lock (for answers and screens). */
  entitlements(db: Db | Tx, subject: PlanSubject): Promise<Entitlements>
  /** Several teams' entitlements in one statement, in the order asked (the billing screen's list). */
  teamEntitlements(db: Db | Tx, teamIds: readonly string[]): Promise<Entitlements[]>
  /**
   * Whether the subject's plan has a feature, read without a lock: on every request an API key
   * makes. A feature (and its refusal) does not depend on usage, so nothing is counted.
   */
  assertFeature(
    db: Db | Tx,
    subject: PlanSubject,
    feature: 'apiAccess' | 'webhooks',
    /** The subject's row when the caller's own statement read it (`subjectRowColumns`). */
    row?: SubjectRow,
  ): Promise<void>
}

export function createPlanGate(options: { enabled: boolean; now?: () => Date }): PlanGate {
  const now = options.now ?? (() => new Date())
  // The subjects a transaction has already found writable under their lock. The lock holds until
  // the commit, so a later 'editPrompt' of the same subject (a save that moves labels and adds a
  // version, an import's prompts) would read the same answer again: it is taken from here instead.
  // Counted actions always count again: the transaction's own writes change the count.
  const writableIn = new WeakMap<Tx, Set<string>>()
  return {
    enabled: options.enabled,
    now,
    async require(tx, subject, action, gateOptions = {}) {
      if (!options.enabled) return
      const key = subjectKeyOf(subject)
      if (action === 'editPrompt' && writableIn.get(tx)?.has(key)) return
      let entitlements: Entitlements
      try {
        entitlements = await readEntitlements(tx, subject, {
          enabled: true,
          now: now(),
          lock: true,
          ...gateOptions,
        })
      } catch (error) {
        if (error instanceof AppError) throw error
        throw new AppError('transient', 'plans.checkFailed')
      }
      const decision = decide(entitlements, action, gateOptions.adding)
      if (!decision.allowed) throw planLimitError(decision)
      const writable = writableIn.get(tx) ?? new Set<string>()
      writableIn.set(tx, writable.add(key))
    },
    entitlements: (db, subject) => readEntitlements(db, subject, { enabled: options.enabled, now: now() }),
    async teamEntitlements(db, teamIds) {
      if (teamIds.length === 0) return []
      const rows = await queryRows<SubjectRow & TeamUsageRow & { team_id: string }>(
        db,
        sql`SELECT t.id AS team_id, ps.plan, t.created_at, ${teamUsageColumns(sql`t.id`)}
            FROM teams t LEFT JOIN plan_subjects ps ON ps.subject_key = ${subjectKeySql('team', sql`t.id`)}
            WHERE t.id IN (${sql.join(
              teamIds.map((id) => sql`${id}`),
              sql`, `,
            )})`,
      )
      const byTeam = new Map(rows.map((row) => [row.team_id, row]))
      return teamIds.map((teamId) => {
        const row = byTeam.get(teamId)
        const subject: PlanSubject = { context: 'team', teamId }
        return entitlementsFromRow(subject, row, teamUsageOf(row), { enabled: options.enabled, now: now() })
      })
    },
    async assertFeature(db, subject, feature, row) {
      if (!options.enabled) return
      const entitlements = await readEntitlements(db, subject, {
        enabled: true,
        now: now(),
        uncounted: true,
        row,
      })
      const decision = decide(entitlements, feature)
      if (!decision.allowed) throw planLimitError(decision)
    },
  }
}

/** The refusal: 403 `plan_limit` with the details and the spec's words for the reason. */
export function planLimitError(details: PlanLimitDetails): AppError {
  const { allowed: _, ...planLimit } = details as PlanLimitDetails & { allowed?: boolean }
  return new AppError('plan_limit', refusalMessageKey(planLimit), {
    reason: planLimit.reason,
    params: { max: planLimit.max ?? '—', used: planLimit.used ?? '—' },
    planLimit,
  })
}

export interface SubjectRow extends Record<string, unknown> {
  plan: ChoosablePlanId | null
  created_at: SqlTimestamp
}

/**
 * `plan_subjects.subject_key` of the subject whose id is the SQL `id` (a column), built in the
 * statement: it must be the text of the domain's `subjectKeyOf`, which keys the rows when they are
 * made (plan-gate.api.test.ts holds the two equal). Compared as `subject_key = <this>`, so the
 * primary key's index finds the row.
 */
export function subjectKeySql(context: PlanSubject['context'], id: SQL): SQL {
  return context === 'team' ? sql`'team:' || ${id}` : sql`'user:' || ${id}`
}

async function readSubject(db: Db | Tx, subject: PlanSubject): Promise<SubjectRow | undefined> {
  const [row] = await queryRows<SubjectRow>(
    db,
    sql`SELECT (SELECT plan FROM plan_subjects WHERE subject_key = ${subjectKeyOf(subject)}) AS plan, ${createdAtOf(subject)} AS created_at`,
  )
  return row
}

/**
 * A SubjectRow's columns (`plan`, `created_at`) for the space named by a row's team and owner
 * columns, so a statement that reads such a row (an API key's lookup, on every request a key
 * makes) reads the space's plan with it instead of in a statement of its own.
 */
export function subjectRowColumns(teamId: SQL, userId: SQL, prefix = ''): SQL {
  return sql`(SELECT ps.plan FROM plan_subjects ps
      WHERE ps.subject_key = CASE WHEN ${teamId} IS NULL THEN ${subjectKeySql('personal', userId)} ELSE ${subjectKeySql('team', teamId)} END) AS ${sql.raw(`${prefix}plan`)},
    CASE WHEN ${teamId} IS NULL THEN (SELECT su.created_at FROM users su WHERE su.id = ${userId})
      ELSE (SELECT st.created_at FROM teams st WHERE st.id = ${teamId}) END AS ${sql.raw(`${prefix}created_at`)}`
}

function createdAtOf(subject: PlanSubject): SQL {
  return subject.context === 'team'
    ? sql`(SELECT created_at FROM teams WHERE id = ${subject.teamId})`
    : sql`(SELECT created_at FROM users WHERE id = ${subject.userId})`
}

/**
 * Takes the subject's row lock (the row is made on first use) and reads its chosen plan and the
 * start of its trial. Held until the transaction ends: every gated write and every plan change of
 * one subject take turns on it.
 */
export async function lockPlanSubject(tx: Tx, subject: PlanSubject): Promise<SubjectRow | undefined> {
  const key = subjectKeyOf(subject)
  await tx.execute(
    subject.context === 'team'
      ? sql`INSERT INTO plan_subjects (subject_key, team_id) VALUES (${key}, ${subject.teamId}) ON CONFLICT (subject_key) DO NOTHING`
      : sql`INSERT INTO plan_subjects (subject_key, user_id) VALUES (${key}, ${subject.userId}) ON CONFLICT (subject_key) DO NOTHING`,
  )
  const [row] = await queryRows<SubjectRow>(
    tx,
    sql`SELECT plan, ${createdAtOf(subject)} AS created_at FROM plan_subjects WHERE subject_key = ${key} FOR UPDATE`,
  )
  return row
}

async function readEntitlements(
  db: Db | Tx,
  subject: PlanSubject,
  /** `uncounted`: usage read as zero, for decisions that do not depend on it; `row`: already read. */
  options: {
    enabled: boolean
    now: Date
    lock?: boolean
    uncounted?: boolean
    row?: SubjectRow
  } & GateOptions,
): Promise<Entitlements> {
  const row =
    options.row ?? (options.lock ? await lockPlanSubject(db as Tx, subject) : await readSubject(db, subject))
  if (!row?.created_at) throw new AppError('not_found', 'plans.subjectNotFound')
  const usage = options.uncounted
    ? { prompts: 0, teamMembers: 0 }
    : await usageOf(db, subject, options.excludingInvitationId)
  return entitlementsFromRow(subject, row, usage, options)
}

function entitlementsFromRow(
  subject: PlanSubject,
  row: SubjectRow | undefined,
  usage: { prompts: number; teamMembers: number },
  options: { enabled: boolean; now: Date },
): Entitlements {
  if (!row?.created_at) throw new AppError('not_found', 'plans.subjectNotFound')
  return entitlementsOf({
    context: subject.context,
    teamId: subject.context === 'team' ? subject.teamId : null,
    createdAt: new Date(row.created_at),
    chosenPlan: row.plan,
    usage,
    now: options.now,
    enabled: options.enabled,
  })
}

interface TeamUsageRow extends Record<string, unknown> {
  prompts: number | string
  members: number | string
  pending: number | string
}

/** A team's counted usage as three columns (`prompts`, `members`, `pending`), for the team named by `teamId`. */
function teamUsageColumns(teamId: SQL, excludingInvitationId?: string): SQL {
  return sql`(SELECT count(*) FROM prompts WHERE team_id = ${teamId}) AS prompts,
    (SELECT count(*) FROM team_members WHERE team_id = ${teamId}) AS members,
    (SELECT count(*) FROM invitations
      WHERE team_id = ${teamId} AND status = 'pending' AND expires_at > now()
      ${excludingInvitationId ? sql`AND id <> ${excludingInvitationId}` : sql``}) AS pending`
}

/** Members and pending invitations both count against a team's member limit. */
function teamUsageOf(row: TeamUsageRow | undefined): { prompts: number; teamMembers: number } {
  return {
    prompts: Number(row?.prompts ?? 0),
    teamMembers: Number(row?.members ?? 0) + Number(row?.pending ?? 0),
  }
}

/** Usage, counted live: prompts in the space; a team's members plus pending invitations. */
async function usageOf(
  db: Db | Tx,
  subject: PlanSubject,
  excludingInvitationId: string | undefined,
): Promise<{ prompts: number; teamMembers: number }> {
  if (subject.context === 'personal') {
    const [row] = await queryRows<{ prompts: number | string }>(
      db,
      sql`SELECT count(*) AS prompts FROM prompts WHERE owner_user_id = ${subject.userId} AND team_id IS NULL`,
    )
    return { prompts: Number(row!.prompts), teamMembers: 1 }
  }
  const [row] = await queryRows<TeamUsageRow>(
    db,
    sql`SELECT ${teamUsageColumns(sql`${subject.teamId}`, excludingInvitationId)}`,
  )
  return teamUsageOf(row)
}
