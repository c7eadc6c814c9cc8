import { and, count, eq, inArray, isNull } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { planOperations } from '../../../domain/api/plans.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import { createPlanGate } from '../../core/plan-gate.ts'
import type { Tx } from '../../db/client.ts'
import { invitations, mailOutbox, prompts, teamMembers } from '../../db/schema/index.ts'
import { errorOf, TestClient, type TestResponse, uniqueEmail } from '../../testing/client.ts'
import { createTeamAs, invitationLinkFor, inviteAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from '../prompts/test-fixtures.ts'

const DAY = 24 * 60 * 60 * 1000

// The plans' clock: tests move it forward to end a trial (sessions keep the real clock).
let offset = 0
const now = () => new Date(Date.now() + offset)

let testApp: TestApp
let admin: TestClient
beforeAll(async () => {
  testApp = await createTestApp({ plansEnabled: true }, { now })
  admin = new TestClient(testApp)
  await admin.signUp() // the installation's first account: global admin
})
afterAll(() => testApp.close())

function signedUp(locale = 'en'): Promise<TestClient> {
  return TestClient.signedUp(testApp, { locale })
}

async function personalPromptCount(client: TestClient): Promise<number> {
  const [row] = await testApp.database.db
    .select({ n: count() })
    .from(prompts)
    .where(and(eq(prompts.ownerUserId, client.user!.id), isNull(prompts.teamId)))
  return row!.n
}

async function createPrompts(client: TestClient, n: number) {
  for (let i = 0; i < n; i++) await createPromptAs(client, { title: `Prompt ${i + 1}` })
}

const entitlementsOf = async (client: TestClient, teamId?: string) =>
  (await client.call(planOperations.entitlements, { query: { teamId } })).body

describe('GET /api/v1/me/entitlements', () => {
  it('starts a new account in its 14-day trial with the trial limits and live usage', async () => {
    const user = await signedUp()
    await createPrompts(user, 2)
    const res = await user.call(planOperations.entitlements, {})
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      context: 'personal',
      teamId: null,
      state: 'trial',
      plan: 'trial',
      limits: { maxPrompts: 10, maxTeamMembers: 1, apiAccess: true, webhooks: true },
      usage: { prompts: 2, teamMembers: 1 },
      trial: { daysLeft: 14 },
      canWrite: true,
    })
  })

  it("answers a team's for its members and 404 for anyone else", async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    await inviteAs(owner, team.id, uniqueEmail())
    expect(await entitlementsOf(owner, team.id)).toMatchObject({
      context: 'team',
      teamId: team.id,
      state: 'trial',
      limits: { maxPrompts: 50, maxTeamMembers: 5 },
      usage: { prompts: 0, teamMembers: 2 },
    })
    const stranger = await signedUp()
    const res = await stranger.call(planOperations.entitlements, { query: { teamId: team.id } })
    expect(res.status).toBe(404)
    expect(errorOf(res).message).toBe('Team not found or access denied')
  })
})

describe('creating prompts', () => {
  it('allows 10 in the trial and refuses the 11th with 403 plan_limit, writing nothing', async () => {
    const user = await signedUp()
    await createPrompts(user, 10)
    const res = await user.call(promptOperations.create, { body: { title: 'Eleven', body: 'x' } })
    expect(res.status).toBe(403)
    expect(errorOf(res)).toMatchObject({
      code: 'plan_limit',
      reason: 'limit_reached',
      message: 'You have reached the limit of 10 prompts on your plan. Choose a larger plan to create more.',
      planLimit: { context: 'personal', reason: 'limit_reached', resource: 'prompts', used: 10, max: 10 },
    })
    expect(await personalPromptCount(user)).toBe(10)
  })

  it('says it in German', async () => {
    const user = await signedUp('de')
    await createPrompts(user, 10)
    const res = await user.call(promptOperations.create, { body: { title: 'Elf', body: 'x' } })
    expect(errorOf(res).message).toBe(
      'Du hast das Limit von 10 Prompts deines Tarifs erreicht. Wähle einen größeren Tarif, um weitere zu erstellen.',
    )
  })

  it('lets exactly one of 50 concurrent creates at 9 of 10 through', async () => {
    const user = await signedUp()
    await createPrompts(user, 9)
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        user.call(promptOperations.create, { body: { title: `Race ${i}`, body: 'x' } }),
      ),
    )
    const statuses = results.map((r) => r.status)
    expect(statuses.filter((s) => s === 201)).toHaveLength(1)
    expect(statuses.filter((s) => s === 403)).toHaveLength(49)
    expect(errorOf(results.find((r) => r.status === 403)!).code).toBe('plan_limit')
    expect(await personalPromptCount(user)).toBe(10)
  })

  it("counts a team prompt against the team, not the author's personal space", async () => {
    const user = await signedUp()
    const team = await createTeamAs(user)
    await createPrompts(user, 10)
    await createPromptAs(user, { visibility: 'team', teamId: team.id })
    expect((await entitlementsOf(user, team.id)).usage.prompts).toBe(1)
    expect((await entitlementsOf(user)).usage.prompts).toBe(10)
    // Moving a personal prompt into the team counts there; moving one out of it into the full
    // personal space does not fit.
    const [teamPrompt] = await testApp.database.db.select().from(prompts).where(eq(prompts.teamId, team.id))
    const res = await user.call(promptOperations.update, {
      params: { id: teamPrompt!.id },
      body: { visibility: 'private' },
    })
    expect(res.status).toBe(403)
    expect(errorOf(res).planLimit).toMatchObject({ context: 'personal', resource: 'prompts', used: 10 })
  })
})

describe('an expired trial (the clock moved 15 days on)', () => {
  it('blocks creating and editing with the spec’s text, keeps reading, and Free writes again', async () => {
    const user = await signedUp()
    const prompt = await createPromptAs(user, { title: 'Kept' })
    offset = 15 * DAY
    try {
      expect(await entitlementsOf(user)).toMatchObject({
        state: 'payment_required',
        plan: null,
        canWrite: false,
        trial: { daysLeft: 0 },
      })
      const create = await user.call(promptOperations.create, { body: { title: 'New', body: 'x' } })
      expect(create.status).toBe(403)
      expect(errorOf(create)).toMatchObject({
        code: 'plan_limit',
        message:
          'Your 14-day trial has ended. To continue creating or editing prompts, please choose a plan.',
        planLimit: { context: 'personal', reason: 'payment_required', resource: 'prompts', used: 1, max: 10 },
      })
      const edit = await user.call(promptOperations.update, {
        params: { id: prompt.id },
        body: { body: 'A new version' },
      })
      expect(edit.status).toBe(403)
      expect(errorOf(edit).reason).toBe('payment_required')
      expect((await user.call(promptOperations.get, { params: { id: prompt.id } })).status).toBe(200)
      expect((await user.call(promptOperations.list, {})).body.items).toHaveLength(1)
      expect((await user.call(promptOperations.versions, { params: { id: prompt.id } })).status).toBe(200)

      const free = await user.call(planOperations.choose, { body: { plan: 'free' } })
      expect(free.status).toBe(200)
      expect(free.body).toMatchObject({ outcome: 'active', entitlements: { state: 'active', plan: 'free' } })
      expect(
        (
          await user.call(promptOperations.update, {
            params: { id: prompt.id },
            body: { body: 'A new version' },
          })
        ).status,
      ).toBe(200)
      expect((await user.call(promptOperations.create, { body: { title: 'New', body: 'x' } })).status).toBe(
        201,
      )
    } finally {
      offset = 0
    }
  })

  it("blocks a team's invitations with the team's text", async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    offset = 15 * DAY
    try {
      const res = await owner.call(teamOperations.invite, {
        params: { teamId: team.id },
        body: { email: uniqueEmail() },
      })
      expect(res.status).toBe(403)
      expect(errorOf(res).planLimit).toMatchObject({ context: 'team', reason: 'payment_required' })
      expect(errorOf(res).message).toMatch(/^This team's 14-day trial has ended/)
    } finally {
      offset = 0
    }
  })
})

describe('team members (members plus pending invitations)', () => {
  it('allows 5 in the trial and refuses the 6th invitation, sending nothing', async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    for (let i = 0; i < 4; i++) await inviteAs(owner, team.id, uniqueEmail())
    const email = uniqueEmail()
    const res = await owner.call(teamOperations.invite, { params: { teamId: team.id }, body: { email } })
    expect(res.status).toBe(403)
    expect(errorOf(res)).toMatchObject({
      code: 'plan_limit',
      message:
        'This team has reached its limit of 5 members (pending invitations included). A team admin can choose a larger plan.',
      planLimit: { context: 'team', reason: 'limit_reached', resource: 'team_members', used: 5, max: 5 },
    })
    expect(await testApp.database.db.select().from(invitations).where(eq(invitations.email, email))).toEqual(
      [],
    )
    expect(
      await testApp.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)),
    ).toEqual([])
  })

  it('accepting an invitation counts it once; after a downgrade over the limit accepting is refused', async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    const grant = (plan: 'free' | 'pro' | 'team' | null) =>
      admin.call(planOperations.adminSetPlan, { body: { context: 'team', subjectId: team.id, plan } })
    expect((await grant('team')).status).toBe(200)
    const invitees = await Promise.all(Array.from({ length: 6 }, () => signedUp()))
    for (const invitee of invitees) await inviteAs(owner, team.id, invitee.user!.email)
    // At 7 of 50 the first accepts.
    const first = await invitationLinkFor(testApp, invitees[0]!.user!.email)
    expect(
      (await invitees[0]!.call(teamOperations.acceptInvitation, { params: { token: first.token } })).status,
    ).toBe(200)
    expect((await grant('free')).status).toBe(200)
    // 2 members + 5 pending on Free (max 5): accepting one more would make 3 + 4 = 7.
    const second = await invitationLinkFor(testApp, invitees[1]!.user!.email)
    const res = await invitees[1]!.call(teamOperations.acceptInvitation, { params: { token: second.token } })
    expect(res.status).toBe(403)
    expect(errorOf(res).planLimit).toMatchObject({ resource: 'team_members', used: 6, max: 5 })
    expect(
      await testApp.database.db
        .select()
        .from(teamMembers)
        .where(eq(teamMembers.userId, invitees[1]!.user!.id)),
    ).toEqual([])
  })
})

describe('team members at once (real overlap on PostgreSQL)', () => {
  // A pending invitation holds its seat, so accepting one never takes a new seat: the last free
  // seat is won by an invitation, and accepts at the limit all fit (or, after a downgrade below
  // the team's size, none does).
  const membersOf = async (teamId: string) =>
    (await testApp.database.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId))).length
  const pendingOf = async (teamId: string) =>
    (
      await testApp.database.db
        .select()
        .from(invitations)
        .where(and(eq(invitations.teamId, teamId), eq(invitations.status, 'pending')))
    ).length
  const acceptAs = async (invitee: TestClient) => {
    const { token } = await invitationLinkFor(testApp, invitee.user!.email)
    return invitee.call(teamOperations.acceptInvitation, { params: { token } })
  }
  const expectPlanLimits = (results: TestResponse[]) => {
    for (const res of results) {
      expect(res.status).toBe(403)
      expect(errorOf(res).planLimit).toMatchObject({ resource: 'team_members', max: 5 })
    }
  }

  it('gives the last seat to exactly one of 6 invitations sent at once by two admins', async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    const second = await signedUp()
    await inviteAs(owner, team.id, second.user!.email, 'admin')
    expect((await acceptAs(second)).status).toBe(200)
    for (let i = 0; i < 2; i++) await inviteAs(owner, team.id, uniqueEmail())
    // 2 members + 2 pending of 5: one seat left.
    const emails = Array.from({ length: 6 }, () => uniqueEmail())
    const results = await Promise.all(
      emails.map((email, i) =>
        (i % 2 === 0 ? owner : second).call(teamOperations.invite, {
          params: { teamId: team.id },
          body: { email },
        }),
      ),
    )
    expect(results.filter((res) => res.status === 201)).toHaveLength(1)
    expectPlanLimits(results.filter((res) => res.status !== 201))
    expect((await membersOf(team.id)) + (await pendingOf(team.id))).toBe(5)
    // Only the invitation that got the seat was mailed.
    const mailed = await testApp.database.db
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.toAddress, emails))
    expect(mailed).toHaveLength(1)
  })

  it('lets every invitee of a full team accept at once, while invitations sent meanwhile find no seat', async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    const invitees = await Promise.all(Array.from({ length: 4 }, () => signedUp()))
    for (const invitee of invitees) await inviteAs(owner, team.id, invitee.user!.email)
    // 1 member + 4 pending of 5.
    const [accepts, invites] = await Promise.all([
      Promise.all(invitees.map(acceptAs)),
      Promise.all(
        Array.from({ length: 3 }, () =>
          owner.call(teamOperations.invite, { params: { teamId: team.id }, body: { email: uniqueEmail() } }),
        ),
      ),
    ])
    expect(accepts.map((res) => res.status)).toEqual([200, 200, 200, 200])
    expectPlanLimits(invites)
    expect(await membersOf(team.id)).toBe(5)
    expect(await pendingOf(team.id)).toBe(0)
  })

  it('refuses all of 6 accepts at once after a downgrade below the team size, and lets them in once it fits', async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    const grant = (plan: 'free' | 'pro' | 'team' | null) =>
      admin.call(planOperations.adminSetPlan, { body: { context: 'team', subjectId: team.id, plan } })
    expect((await grant('team')).status).toBe(200)
    const invitees = await Promise.all(Array.from({ length: 6 }, () => signedUp()))
    const sent = []
    for (const invitee of invitees) sent.push(await inviteAs(owner, team.id, invitee.user!.email))
    expect((await grant('free')).status).toBe(200)
    // 1 member + 6 pending on Free (max 5).
    const refused = await Promise.all(invitees.map(acceptAs))
    expectPlanLimits(refused)
    expect(errorOf(refused[0]!).message).toBe(
      'This team has reached its limit of 5 members (pending invitations included). A team admin can choose a larger plan.',
    )
    expect(await membersOf(team.id)).toBe(1)
    // Two invitations withdrawn: 1 + 4 of 5, and the other four accept at once.
    for (const invitation of sent.slice(4)) {
      expect(
        (
          await owner.call(teamOperations.revokeInvitation, {
            params: { teamId: team.id, invitationId: invitation.id },
          })
        ).status,
      ).toBe(204)
    }
    const accepted = await Promise.all(invitees.slice(0, 4).map(acceptAs))
    expect(accepted.map((res) => res.status)).toEqual([200, 200, 200, 200])
    expect(await membersOf(team.id)).toBe(5)
  })
})

describe('choosing a plan', () => {
  it('asks the billing provider for Pro: a pending request a global admin grants, telling the user', async () => {
    const user = await signedUp()
    await createPrompts(user, 10)
    const res = await user.call(planOperations.choose, { body: { plan: 'pro' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      outcome: 'pending',
      checkoutUrl: null,
      request: { plan: 'pro', status: 'pending', provider: 'manual', context: 'personal' },
    })
    // Asking again answers the same pending request.
    const again = await user.call(planOperations.choose, { body: { plan: 'pro' } })
    expect(again.body.request!.id).toBe(res.body.request!.id)
    expect((await user.call(promptOperations.create, { body: { title: 'Eleven', body: 'x' } })).status).toBe(
      403,
    )

    const pending = await admin.call(planOperations.adminRequests, { query: { status: 'pending' } })
    expect(pending.body.items.map((r) => r.id)).toContain(res.body.request!.id)
    const granted = await admin.call(planOperations.adminSetPlan, {
      body: { context: 'personal', subjectId: user.user!.id, plan: 'pro' },
    })
    expect(granted.body).toMatchObject({ state: 'active', plan: 'pro', limits: { maxPrompts: 1000 } })
    const billing = await user.call(planOperations.billing, {})
    expect(billing.body.items[0]!.requests[0]).toMatchObject({ id: res.body.request!.id, status: 'granted' })
    const [mail] = await testApp.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, user.user!.email), eq(mailOutbox.kind, 'plan_granted')))
    expect(mail!.textBody).toContain('The Pro plan you requested is now active.')
    expect((await user.call(promptOperations.create, { body: { title: 'Eleven', body: 'x' } })).status).toBe(
      201,
    )
  })

  it('withdraws a pending request', async () => {
    const user = await signedUp()
    const res = await user.call(planOperations.choose, { body: { plan: 'pro' } })
    expect(
      (await user.call(planOperations.cancelRequest, { params: { requestId: res.body.request!.id } })).status,
    ).toBe(204)
    expect(
      (await user.call(planOperations.cancelRequest, { params: { requestId: res.body.request!.id } })).status,
    ).toBe(409)
    const other = await signedUp()
    expect(
      (await other.call(planOperations.cancelRequest, { params: { requestId: res.body.request!.id } }))
        .status,
    ).toBe(404)
  })

  it('offers only the plans of the context, and a team’s plan only to its admins', async () => {
    const owner = await signedUp()
    const team = await createTeamAs(owner)
    const wrong = await owner.call(planOperations.choose, { body: { plan: 'team' } })
    expect(wrong.status).toBe(400)
    expect(errorOf(wrong).fields).toEqual({ plan: 'This plan is not available here' })
    const member = await signedUp()
    await inviteAs(owner, team.id, member.user!.email)
    const { token } = await invitationLinkFor(testApp, member.user!.email)
    await member.call(teamOperations.acceptInvitation, { params: { token } })
    const refused = await member.call(planOperations.choose, { body: { plan: 'team', teamId: team.id } })
    expect(refused.status).toBe(403)
    expect(errorOf(refused).message).toBe('Team admin access required')
    const ok = await owner.call(planOperations.choose, { body: { plan: 'team', teamId: team.id } })
    expect(ok.body.outcome).toBe('pending')
    const billing = await owner.call(planOperations.billing, {})
    expect(billing.body.items.map((s) => s.entitlements.context)).toEqual(['personal', 'team'])
    expect((await member.call(planOperations.billing, {})).body.items).toHaveLength(1)
  })

  it('lists every administered team with its own usage and newest requests, 20 at most per space', async () => {
    const owner = await signedUp()
    const [beta, alpha, gamma] = [
      await createTeamAs(owner, 'Beta'),
      await createTeamAs(owner, 'Alpha'),
      await createTeamAs(owner, 'Gamma'),
    ]
    const stranger = await signedUp()
    const notMine = await createTeamAs(stranger, 'Aardvark')
    await inviteAs(stranger, notMine.id, owner.user!.email)
    const { token } = await invitationLinkFor(testApp, owner.user!.email)
    await owner.call(teamOperations.acceptInvitation, { params: { token } })
    await createPromptAs(owner, { title: 'A1', visibility: 'team', teamId: alpha.id })
    await createPromptAs(owner, { title: 'A2', visibility: 'team', teamId: alpha.id })
    await createPromptAs(owner, { title: 'B1', visibility: 'team', teamId: beta.id })
    await createPromptAs(owner, { title: 'Mine' })
    await owner.call(planOperations.choose, { body: { plan: 'team', teamId: alpha.id } })
    await owner.call(planOperations.choose, { body: { plan: 'team', teamId: gamma.id } })
    // 21 personal requests, each cancelled before the next: only the newest 20 are shown.
    for (let i = 0; i < 21; i++) {
      const chosen = await owner.call(planOperations.choose, { body: { plan: 'pro' } })
      await owner.call(planOperations.cancelRequest, { params: { requestId: chosen.body.request!.id } })
    }
    const { items } = (await owner.call(planOperations.billing, {})).body
    expect(items.map((space) => space.name)).toEqual([owner.user!.email, 'Alpha', 'Beta', 'Gamma'])
    expect(items.map((space) => space.entitlements.teamId)).toEqual([null, alpha.id, beta.id, gamma.id])
    expect(items.map((space) => space.entitlements.usage.prompts)).toEqual([1, 2, 1, 0])
    expect(items.map((space) => space.requests.length)).toEqual([20, 1, 0, 1])
    expect(items[0]!.requests.every((r) => r.context === 'personal' && r.status === 'cancelled')).toBe(true)
    expect(items[1]!.requests[0]).toMatchObject({ teamId: alpha.id, plan: 'team', status: 'pending' })
    expect(items[3]!.requests[0]).toMatchObject({ teamId: gamma.id, subjectName: 'Gamma' })
    const times = items[0]!.requests.map((r) => r.createdAt)
    expect(times).toEqual([...times].sort().reverse())
  })

  it('keeps the admin operations to global admins', async () => {
    const user = await signedUp()
    expect((await user.call(planOperations.adminRequests, {})).status).toBe(403)
    const res = await user.call(planOperations.adminSetPlan, {
      body: { context: 'personal', subjectId: user.user!.id, plan: 'pro' },
    })
    expect(res.status).toBe(403)
    const missing = await admin.call(planOperations.adminSetPlan, {
      body: { context: 'team', subjectId: crypto.randomUUID(), plan: 'team' },
    })
    expect(missing.status).toBe(404)
  })
})

describe('the gate for other modules (API keys, webhooks)', () => {
  it('refuses API access and webhooks on Free and allows them in the trial', async () => {
    const user = await signedUp()
    const gate = createPlanGate({ enabled: true })
    const subject = { context: 'personal', userId: user.user!.id } as const
    const run = (action: 'apiAccess' | 'webhooks') =>
      testApp.database.db.transaction((tx) => gate.require(tx, subject, action))
    await expect(run('apiAccess')).resolves.toBeUndefined()
    await user.call(planOperations.choose, { body: { plan: 'free' } })
    await expect(run('apiAccess')).rejects.toMatchObject({
      code: 'plan_limit',
      messageKey: 'plans.apiAccessLocked',
      options: { planLimit: { reason: 'feature_not_available', resource: 'api_access' } },
    })
    await expect(run('webhooks')).rejects.toMatchObject({ messageKey: 'plans.webhooksLocked' })
  })

  it('fails closed: a check that cannot run refuses with 503', async () => {
    const gate = createPlanGate({ enabled: true })
    const broken = { execute: () => Promise.reject(new Error('connection lost')) } as unknown as Tx
    await expect(
      gate.require(broken, { context: 'personal', userId: 'u' }, 'createPrompt'),
    ).rejects.toMatchObject({
      code: 'transient',
      messageKey: 'plans.checkFailed',
    })
  })
})

describe('PLANS=off', () => {
  it('makes the installation unlimited', async () => {
    const off = await createTestApp({ plansEnabled: false })
    try {
      const user = new TestClient(off)
      await user.signUp()
      for (let i = 0; i < 11; i++) await createPromptAs(user)
      const res = await user.call(planOperations.entitlements, {})
      expect(res.body).toMatchObject({
        state: 'unlimited',
        limits: { maxPrompts: null, maxTeamMembers: null, apiAccess: true },
        usage: { prompts: 11 },
      })
    } finally {
      await off.close()
    }
  })
})
