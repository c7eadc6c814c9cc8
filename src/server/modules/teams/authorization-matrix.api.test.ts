import { randomBytes } from 'node:crypto'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Operation, operationUrl } from '../../../domain/api/operation.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import type { CurrentUser } from '../../../domain/auth.ts'
import { queryRows } from '../../db/rows.ts'
import { TestClient, uniqueEmail } from '../../testing/client.ts'
import { createTeamAs, invitationLinkFor, inviteAs } from '../../testing/teams.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

/**
 * Every team endpoint × every kind of caller (the security target: every rule on the server). Each mutating cell runs on
 * a fresh team, so one caller's success cannot hide another's refusal.
 */
const actors = ['anonymous', 'stranger', 'member', 'teamAdmin', 'otherTeamAdmin', 'globalAdmin'] as const
type ActorName = (typeof actors)[number]

interface Fixture {
  teamId: string
  targetId: string
  invitationId: string
}

interface Endpoint {
  name: string
  operation: Operation
  params: (f: Fixture) => Record<string, string>
  body?: (f: Fixture) => unknown
  mutates: boolean
  expected: Record<ActorName, number>
}

const viewing = {
  anonymous: 401,
  stranger: 404,
  member: 200,
  teamAdmin: 200,
  otherTeamAdmin: 404,
  globalAdmin: 200,
}
const adminOnly = (ok: number) => ({
  anonymous: 401,
  stranger: 404,
  member: 403,
  teamAdmin: ok,
  otherTeamAdmin: 404,
  globalAdmin: ok,
})

const endpoints: Endpoint[] = [
  {
    name: 'GET /teams/:id',
    operation: teamOperations.get,
    params: (f) => ({ teamId: f.teamId }),
    mutates: false,
    expected: viewing,
  },
  {
    name: 'PATCH /teams/:id',
    operation: teamOperations.rename,
    params: (f) => ({ teamId: f.teamId }),
    body: () => ({ name: 'Renamed' }),
    mutates: true,
    expected: adminOnly(200),
  },
  {
    name: 'GET /teams/:id/members',
    operation: teamOperations.members,
    params: (f) => ({ teamId: f.teamId }),
    mutates: false,
    expected: viewing,
  },
  {
    name: 'PATCH /teams/:id/members/:userId',
    operation: teamOperations.changeRole,
    params: (f) => ({ teamId: f.teamId, userId: f.targetId }),
    body: () => ({ role: 'admin' }),
    mutates: true,
    expected: adminOnly(200),
  },
  {
    name: 'DELETE /teams/:id/members/:userId',
    operation: teamOperations.removeMember,
    params: (f) => ({ teamId: f.teamId, userId: f.targetId }),
    mutates: true,
    expected: adminOnly(204),
  },
  {
    name: 'POST /teams/:id/leave',
    operation: teamOperations.leave,
    params: (f) => ({ teamId: f.teamId }),
    mutates: true,
    // The team admin is the team's only admin; the global admin is not a member.
    expected: {
      anonymous: 401,
      stranger: 404,
      member: 204,
      teamAdmin: 409,
      otherTeamAdmin: 404,
      globalAdmin: 404,
    },
  },
  {
    name: 'GET /teams/:id/invitations',
    operation: teamOperations.invitations,
    params: (f) => ({ teamId: f.teamId }),
    mutates: false,
    expected: viewing,
  },
  {
    name: 'POST /teams/:id/invitations',
    operation: teamOperations.invite,
    params: (f) => ({ teamId: f.teamId }),
    body: () => ({ email: uniqueEmail('matrix') }),
    mutates: true,
    expected: adminOnly(201),
  },
  {
    name: 'POST /teams/:id/invitations/:id/resend',
    operation: teamOperations.resendInvitation,
    params: (f) => ({ teamId: f.teamId, invitationId: f.invitationId }),
    mutates: true,
    expected: adminOnly(200),
  },
  {
    name: 'DELETE /teams/:id/invitations/:id',
    operation: teamOperations.revokeInvitation,
    params: (f) => ({ teamId: f.teamId, invitationId: f.invitationId }),
    mutates: true,
    expected: adminOnly(204),
  },
]

let testApp: TestApp
const clients = {} as Record<ActorName, TestClient>
const users = {} as Record<Exclude<ActorName, 'anonymous'>, CurrentUser>
let target: CurrentUser
let shared: Fixture

/** A team of teamAdmin (admin), member and target (members), with one pending invitation. */
async function freshTeam(): Promise<Fixture> {
  const db = testApp.database.db
  const [team] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO teams (name, created_by_user_id) VALUES ('Matrix', ${users.teamAdmin.id}) RETURNING id`,
  )
  const teamId = team!.id
  await db.execute(
    sql`INSERT INTO team_members (team_id, user_id, role) VALUES
          (${teamId}, ${users.teamAdmin.id}, 'admin'),
          (${teamId}, ${users.member.id}, 'member'),
          (${teamId}, ${target.id}, 'member')`,
  )
  const [invitation] = await queryRows<{ id: string }>(
    db,
    sql`INSERT INTO invitations (team_id, email, invited_by_user_id, token_hash, expires_at)
        VALUES (${teamId}, ${uniqueEmail('pending')}, ${users.teamAdmin.id}, ${randomBytes(32).toString('hex')},
                now() + interval '7 days')
        RETURNING id`,
  )
  return { teamId, targetId: target.id, invitationId: invitation!.id }
}

beforeAll(async () => {
  testApp = await createTestApp()
  // The installation's first account is its global admin.
  for (const name of ['globalAdmin', 'stranger', 'member', 'teamAdmin', 'otherTeamAdmin'] as const) {
    clients[name] = new TestClient(testApp)
    users[name] = await clients[name].signUp()
  }
  clients.anonymous = new TestClient(testApp)
  expect(users.globalAdmin.globalRole).toBe('global_admin')
  target = await new TestClient(testApp).signUp()
  await createTeamAs(clients.otherTeamAdmin, 'Elsewhere')
  shared = await freshTeam()
})
afterAll(() => testApp.close())

describe.each(endpoints)('$name', (endpoint) => {
  it.each(actors)('as %s', async (actor) => {
    const fixture = endpoint.mutates ? await freshTeam() : shared
    const { spec } = endpoint.operation
    // Every method but GET sends a JSON body, even DELETE (callUnchecked would send none).
    const body = endpoint.body?.(fixture) ?? (spec.method === 'GET' ? undefined : {})
    const res = await clients[actor].request(spec.method, operationUrl(spec, endpoint.params(fixture)), {
      body,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(endpoint.expected[actor])
  })
})

describe('team-wide endpoints', () => {
  it.each(actors)('GET and POST /teams as %s', async (actor) => {
    const list = await clients[actor].call(teamOperations.list, {})
    const create = await clients[actor].call(teamOperations.create, { body: { name: `By ${actor}` } })
    expect([list.status, create.status]).toEqual(actor === 'anonymous' ? [401, 401] : [200, 201])
  })
})

describe('invitation links', () => {
  let token: string
  let inviteeEmail: string
  beforeAll(async () => {
    inviteeEmail = uniqueEmail('invitee')
    await inviteAs(clients.teamAdmin, shared.teamId, inviteeEmail)
    token = (await invitationLinkFor(testApp, inviteeEmail)).token
  })

  it.each(actors)('GET /invitations/:token as %s shows it to the link holder', async (actor) => {
    expect((await clients[actor].call(teamOperations.previewInvitation, { params: { token } })).status).toBe(
      200,
    )
  })

  it.each(actors)(
    'POST /invitations/:token/accept as %s is refused unless it is the invitee',
    async (actor) => {
      const res = await clients[actor].call(teamOperations.acceptInvitation, { params: { token } })
      expect(res.status).toBe(actor === 'anonymous' ? 401 : 403)
    },
  )

  it('accepts for the invitee', async () => {
    const invitee = new TestClient(testApp)
    await invitee.signUp(inviteeEmail)
    expect((await invitee.call(teamOperations.acceptInvitation, { params: { token } })).status).toBe(200)
  })
})
