import { type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import { isUuid } from '../../../domain/ids.ts'
import { translate } from '../../../domain/messages/index.ts'
import {
  type BillingSpace,
  type ChoosablePlanId,
  type choosePlanInput,
  type choosePlanResultSchema,
  type Entitlements,
  type grantPlanInput,
  isPlanOffered,
  PLANS,
  type PlanRequest,
  type PlanRequestStatus,
  type PlanSubject,
  type SubjectKey,
  subjectKeyOf,
  subjectOf,
} from '../../../domain/plans.ts'
import { type AuditWho, recordAudit } from '../../core/audit.ts'
import { lockPlanSubject, type PlanGate } from '../../core/plan-gate.ts'
import { authorizeTeam } from '../../core/team-access.ts'
import type { Db, Tx } from '../../db/client.ts'
import { isoTimestamp, queryRows, type SqlTimestamp } from '../../db/rows.ts'
import { enqueueMail } from '../../mail/outbox.ts'
import { recipientLocale } from '../../mail/recipient-locale.ts'
import { renderMail } from '../../mail/render.ts'
import type { BillingProvider } from './billing-provider.ts'

export interface PlanDeps {
  db: Db
  plans: PlanGate
  provider: BillingProvider
  appUrl: string
}

const REQUESTS_SHOWN = 20

/** My personal space's entitlements, or those of a team I belong to (404 for any other team). */
export async function getEntitlements(
  deps: PlanDeps,
  actor: Actor,
  teamId: string | undefined,
): Promise<Entitlements> {
  if (teamId) {
    await authorizeTeam(deps.db, actor, teamId, 'view_team_data')
    return deps.plans.entitlements(deps.db, { context: 'team', teamId })
  }
  return deps.plans.entitlements(deps.db, { context: 'personal', userId: actor.id })
}

/** /billing: my personal space and every team I administer, each with its entitlements and requests. */
export async function listBillingSpaces(deps: PlanDeps, actor: Actor): Promise<BillingSpace[]> {
  const teams = await queryRows<{ id: string; name: string }>(
    deps.db,
    sql`SELECT t.id, t.name FROM teams t JOIN team_members m ON m.team_id = t.id
        WHERE m.user_id = ${actor.id} AND m.role = 'admin' ORDER BY t.name, t.id`,
  )
  // A fixed number of statements however many teams the caller administers.
  const personal: PlanSubject = { context: 'personal', userId: actor.id }
  const subjects: PlanSubject[] = [
    personal,
    ...teams.map((team) => ({ context: 'team', teamId: team.id }) as const),
  ]
  const [personalEntitlements, teamEntitlements, requests] = await Promise.all([
    deps.plans.entitlements(deps.db, personal),
    deps.plans.teamEntitlements(
      deps.db,
      teams.map((team) => team.id),
    ),
    newestRequestsOf(deps.db, subjects.map(subjectKeyOf), REQUESTS_SHOWN),
  ])
  return [
    {
      name: actor.email,
      entitlements: personalEntitlements,
      requests: requests.get(subjectKeyOf(personal)) ?? [],
    },
    ...teams.map((team, i) => ({
      name: team.name,
      entitlements: teamEntitlements[i]!,
      requests: requests.get(subjectKeyOf({ context: 'team', teamId: team.id })) ?? [],
    })),
  ]
}

/** The subject whose plan the actor wants to change, after checking they may (team: its admins). */
async function managedSubject(tx: Tx, actor: Actor, teamId: string | null): Promise<PlanSubject> {
  if (!teamId) return { context: 'personal', userId: actor.id }
  await authorizeTeam(tx, actor, teamId, 'manage_team')
  return { context: 'team', teamId }
}

/**
 * Choose a plan. Free is self-service and active at once (also a downgrade:
 * what exists stays, new writes over the limit are refused). Pro and Team go through the billing
 * provider: a pending request (one at a time per space; asking again for the same plan answers the
 * pending one).
 */
export async function choosePlan(
  deps: PlanDeps,
  actor: Actor,
  input: z.output<typeof choosePlanInput>,
): Promise<z.output<typeof choosePlanResultSchema>> {
  return deps.db.transaction(async (tx) => {
    const subject = await managedSubject(tx, actor, input.teamId)
    if (!isPlanOffered(input.plan, subject.context)) {
      throw new AppError('validation', 'plans.planNotOffered', { fields: { plan: 'plans.planNotOffered' } })
    }
    const key = subjectKeyOf(subject)
    const current = await lockPlanSubject(tx, subject)
    if (current?.plan === input.plan) throw new AppError('conflict', 'plans.alreadyOnPlan')
    if (!PLANS[input.plan].paid) {
      await setPlan(tx, subject, input.plan, actor.id, actor)
      await tx.execute(
        sql`UPDATE plan_requests SET status = 'cancelled', decided_at = now(), decided_by_user_id = ${actor.id}
            WHERE subject_key = ${key} AND status = 'pending'`,
      )
      return {
        outcome: 'active' as const,
        entitlements: await deps.plans.entitlements(tx, subject),
        request: null,
        checkoutUrl: null,
      }
    }
    const [pending] = await selectRequests(tx, sql`r.subject_key = ${key} AND r.status = 'pending'`, 1)
    if (pending?.plan === input.plan) {
      return {
        outcome: 'pending' as const,
        entitlements: await deps.plans.entitlements(tx, subject),
        request: pending,
        checkoutUrl: null,
      }
    }
    if (pending) {
      await tx.execute(
        sql`UPDATE plan_requests SET status = 'cancelled', decided_at = now(), decided_by_user_id = ${actor.id}
            WHERE id = ${pending.id}`,
      )
    }
    const [created] = await queryRows<{ id: string }>(
      tx,
      sql`INSERT INTO plan_requests (subject_key, plan, provider, requested_by_user_id)
          VALUES (${key}, ${input.plan}, ${deps.provider.id}, ${actor.id}) RETURNING id`,
    )
    const started = await deps.provider.start(tx, {
      requestId: created!.id,
      subjectKey: key,
      plan: input.plan,
      requestedBy: { id: actor.id, email: actor.email },
    })
    if (started.providerRef) {
      await tx.execute(
        sql`UPDATE plan_requests SET provider_ref = ${started.providerRef} WHERE id = ${created!.id}`,
      )
    }
    const [request] = await selectRequests(tx, sql`r.id = ${created!.id}`, 1)
    return {
      outcome: 'pending' as const,
      entitlements: await deps.plans.entitlements(tx, subject),
      request: request!,
      checkoutUrl: started.checkoutUrl,
    }
  })
}

/** Withdraw a pending request of my personal space or of a team I administer. */
export async function cancelPlanRequest(deps: PlanDeps, actor: Actor, requestId: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await queryRows<{
      subject_key: string
      status: PlanRequestStatus
      user_id: string | null
      team_id: string | null
    }>(
      tx,
      sql`SELECT r.subject_key, r.status, s.user_id, s.team_id FROM plan_requests r
          JOIN plan_subjects s ON s.subject_key = r.subject_key WHERE r.id = ${requestId} FOR UPDATE OF r`,
    )
    const notFound = () => new AppError('not_found', 'plans.requestNotFound')
    if (!row) throw notFound()
    if (row.team_id) await authorizeTeam(tx, actor, row.team_id, 'manage_team')
    else if (row.user_id !== actor.id) throw notFound()
    if (row.status !== 'pending') throw new AppError('conflict', 'plans.requestNotPending')
    await tx.execute(
      sql`UPDATE plan_requests SET status = 'cancelled', decided_at = now(), decided_by_user_id = ${actor.id}
          WHERE id = ${requestId}`,
    )
  })
}

/** Every plan request, newest first (global admins). */
export async function listPlanRequests(
  db: Db,
  status: PlanRequestStatus | undefined,
): Promise<PlanRequest[]> {
  return selectRequests(db, status ? sql`r.status = ${status}` : sql`true`, 200)
}

/**
 * A global admin sets any subject's plan (null takes it away). A pending request for exactly that
 * plan is granted by it, and whoever asked is told by mail; this is the manual provider's
 * confirmation, the same `activatePlan` a payment provider's webhook would call.
 */
export async function adminSetPlan(
  deps: PlanDeps,
  actor: Actor,
  input: z.output<typeof grantPlanInput>,
): Promise<Entitlements> {
  return deps.db.transaction(async (tx) => {
    const subject: PlanSubject =
      input.context === 'team'
        ? { context: 'team', teamId: input.subjectId }
        : { context: 'personal', userId: input.subjectId }
    const exists =
      input.context === 'team'
        ? isUuid(input.subjectId) &&
          (await queryRows(tx, sql`SELECT 1 FROM teams WHERE id = ${input.subjectId}`)).length > 0
        : (await queryRows(tx, sql`SELECT 1 FROM users WHERE id = ${input.subjectId}`)).length > 0
    if (!exists) throw new AppError('not_found', 'plans.subjectNotFound')
    if (input.plan && !isPlanOffered(input.plan, input.context)) {
      throw new AppError('validation', 'plans.planNotOffered', { fields: { plan: 'plans.planNotOffered' } })
    }
    await activatePlan(tx, deps.appUrl, subject, input.plan, actor.id, actor)
    return deps.plans.entitlements(tx, subject)
  })
}

/**
 * Sets a subject's plan under its lock and grants a pending request for that plan (telling its
 * requester). The one way a paid plan becomes active, whichever provider confirmed it.
 */
export async function activatePlan(
  tx: Tx,
  appUrl: string,
  subject: PlanSubject,
  plan: ChoosablePlanId | null,
  byUserId: string | null,
  who?: AuditWho | Actor,
): Promise<void> {
  await lockPlanSubject(tx, subject)
  await setPlan(tx, subject, plan, byUserId, who)
  if (!plan) return
  const granted = await queryRows<{ id: string; email: string | null; space: string }>(
    tx,
    sql`UPDATE plan_requests r SET status = 'granted', decided_at = now(), decided_by_user_id = ${byUserId}
        FROM plan_subjects s
        LEFT JOIN users u ON u.id = s.user_id
        LEFT JOIN teams t ON t.id = s.team_id
        WHERE r.subject_key = ${subjectKeyOf(subject)} AND r.status = 'pending' AND r.plan = ${plan}
          AND s.subject_key = r.subject_key
        RETURNING r.id, (SELECT email FROM users WHERE id = r.requested_by_user_id) AS email,
          coalesce(t.name, u.email) AS space`,
  )
  for (const request of granted) {
    if (request.email) await queueGrantedMail(tx, appUrl, request.email, plan, request.space)
  }
}

/**
 * Sets the plan and records the change in the audit log, in the caller's transaction. `who`: the
 * request's actor; without one (a payment provider's confirmation) the server itself acted.
 */
async function setPlan(
  tx: Tx,
  subject: PlanSubject,
  plan: ChoosablePlanId | null,
  byUserId: string | null,
  who?: AuditWho | Actor,
) {
  const [before] = await queryRows<{ plan: ChoosablePlanId | null }>(
    tx,
    sql`SELECT plan FROM plan_subjects WHERE subject_key = ${subjectKeyOf(subject)}`,
  )
  await tx.execute(
    sql`UPDATE plan_subjects SET plan = ${plan}, plan_set_at = now(), plan_set_by_user_id = ${byUserId}
        WHERE subject_key = ${subjectKeyOf(subject)}`,
  )
  if ((before?.plan ?? null) === plan) return
  await recordAudit(
    tx,
    who ?? { kind: 'system', userId: byUserId, apiKeyId: null, email: null, clientAddress: null },
    {
      action: 'plan.changed',
      objectType: 'plan',
      objectId: subject.context === 'team' ? subject.teamId : subject.userId,
      teamId: subject.context === 'team' ? subject.teamId : null,
      before: { context: subject.context, plan: before?.plan ?? null },
      after: { context: subject.context, plan },
    },
  )
}

async function queueGrantedMail(tx: Tx, appUrl: string, to: string, plan: ChoosablePlanId, space: string) {
  const locale = await recipientLocale(tx, to, 'en')
  const rendered = renderMail({
    locale,
    subject: 'plans.mail.grantedSubject',
    intro: [['plans.mail.grantedBody', { plan: translate(locale, `plans.name.${plan}`) }]],
    details: [['plans.mail.detailSpace', space]],
    action: { label: 'plans.mail.action', url: new URL('/billing', appUrl).toString() },
    appUrl,
  })
  await enqueueMail(tx, { kind: 'plan_granted', to, ...rendered })
}

interface RequestRow extends Record<string, unknown> {
  id: string
  user_id: string | null
  team_id: string | null
  subject_name: string | null
  plan: ChoosablePlanId
  status: PlanRequestStatus
  provider: string
  requested_by_email: string | null
  created_at: SqlTimestamp
  decided_at: SqlTimestamp | null
}

/** Each subject's newest requests, at most `limit` of each, by subject key, in one statement. */
async function newestRequestsOf(
  db: Db,
  keys: SubjectKey[],
  limit: number,
): Promise<Map<SubjectKey, PlanRequest[]>> {
  const newest = await selectRequestRows(
    db,
    sql`r.id IN (SELECT id FROM (
          SELECT id, row_number() OVER (PARTITION BY subject_key ORDER BY created_at DESC, id DESC) AS n
          FROM plan_requests WHERE subject_key IN (${sql.join(
            keys.map((key) => sql`${key}`),
            sql`, `,
          )})) AS ranked WHERE n <= ${limit})`,
    keys.length * limit,
  )
  const bySubject = new Map<SubjectKey, PlanRequest[]>()
  for (const row of newest) {
    const key = subjectKeyOf(subjectOf(row.user_id!, row.team_id))
    const requests = bySubject.get(key)
    if (requests) requests.push(requestOf(row))
    else bySubject.set(key, [requestOf(row)])
  }
  return bySubject
}

async function selectRequests(db: Db | Tx, where: SQL, limit: number): Promise<PlanRequest[]> {
  return (await selectRequestRows(db, where, limit)).map(requestOf)
}

function selectRequestRows(db: Db | Tx, where: SQL, limit: number): Promise<RequestRow[]> {
  return queryRows<RequestRow>(
    db,
    sql`SELECT r.id, s.user_id, s.team_id, coalesce(t.name, u.email) AS subject_name, r.plan, r.status,
          r.provider, requester.email AS requested_by_email, r.created_at, r.decided_at
        FROM plan_requests r
        JOIN plan_subjects s ON s.subject_key = r.subject_key
        LEFT JOIN users u ON u.id = s.user_id
        LEFT JOIN teams t ON t.id = s.team_id
        LEFT JOIN users requester ON requester.id = r.requested_by_user_id
        WHERE ${where}
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT ${limit}`,
  )
}

function requestOf(row: RequestRow): PlanRequest {
  return {
    id: row.id,
    context: row.team_id ? 'team' : 'personal',
    teamId: row.team_id,
    subjectName: row.subject_name ?? '',
    plan: row.plan,
    status: row.status,
    provider: row.provider,
    requestedByEmail: row.requested_by_email,
    createdAt: isoTimestamp(row.created_at),
    decidedAt: row.decided_at ? isoTimestamp(row.decided_at) : null,
  }
}
