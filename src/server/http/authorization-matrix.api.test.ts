import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationGroups } from '../../domain/api/index.ts'
import { type Operation, operationsOf } from '../../domain/api/operation.ts'
import { isErrorBody } from '../../domain/errors.ts'
import { type ApiObjects, sampleBody, seedApiObjects, validParam } from '../testing/api-samples.ts'
import { TestClient } from '../testing/client.ts'
import { createTestApp } from '../testing/test-app.ts'

/**
 * Every declared operation against the callers who have no business with its objects: nobody
 * signed in, and a signed-in stranger (no team, no objects in common with the owner). Each cell is
 * a real, valid request naming the owner's objects. Anonymous answers follow from the declared
 * access; what a stranger gets is written below for every operation, so a new operation without a
 * row fails the suite. The rights of members, team admins and global admins inside a team are
 * checked cell by cell in the module matrices (teams/authorization-matrix, conversations'
 * permission matrix, the prompts and plans tests).
 *
 * A leak is a success (2xx) for a caller the row says must be refused.
 */
const strangerAnswers: Record<string, number | number[]> = {
  // Signing in or up as anyone is open to everyone (the sample body is the owner's own account).
  'auth.signUp': 409,
  'auth.signIn': 200,
  // The anonymous cell asked for the same address just before: its per-address limit may answer.
  'auth.sendCode': [200, 429],
  'auth.verifyCode': 400,
  'auth.providers': 200,
  'auth.requestPasswordReset': [200, 429],
  'auth.openRecovery': 400,
  'auth.recovery': 401,
  'auth.recoverPassword': 401,
  'auth.directReset': 401,
  'auth.adminSetPassword': 403,
  'auth.diagnostics': 403,
  // The stranger's own account.
  'account.session': 200,
  'account.sessions': 200,
  'account.me': 200,
  'account.profile': 200,
  'account.updateProfile': 200,
  // Lists and creates are the stranger's own; the owner's objects are not found.
  'prompts.list': 200,
  'prompts.tags': 200,
  // A team the stranger is not in, named in the body: refused like any invalid field.
  'prompts.create': 400,
  'prompts.get': 404,
  'prompts.update': 404,
  'prompts.delete': 404,
  'prompts.usedBy': 404,
  'prompts.versions': 404,
  'prompts.version': 404,
  'prompts.setCurrentVersion': 404,
  'promptLabels.set': 404,
  'promptLabels.remove': 404,
  'promptLabels.history': 404,
  'promptLabels.revert': 404,
  'promptLabels.protectedLabels': 404,
  'promptLabels.setProtectedLabels': 404,
  // Keys of the owner's team (list and create name it) and the owner's key.
  'apiKeys.list': 404,
  'apiKeys.create': 404,
  'apiKeys.revoke': 404,
  // The whole log is for global admins; a team's log for its admins (a team not one's own: 404).
  'audit.list': 403,
  'audit.export': 403,
  'audit.teamList': 404,
  'audit.teamExport': 404,
  // The endpoints of the owner's team (list and create name it) and one of them.
  'webhooks.list': 404,
  'webhooks.create': 404,
  'webhooks.update': 404,
  'webhooks.delete': 404,
  'webhooks.revealSecret': 404,
  'webhooks.rotateSecret': 404,
  'webhooks.sendTest': 404,
  'webhooks.deliveries': 404,
  'webhooks.redeliver': 404,
  'conversations.list': 200,
  'conversations.create': 404,
  'conversations.get': 404,
  'conversations.update': 404,
  'conversations.delete': 404,
  'conversations.messages': 404,
  'conversations.appendMessage': 404,
  'conversations.updateMessage': 404,
  'conversations.deleteMessage': 404,
  'conversations.attachments': 404,
  'conversations.attach': 404,
  'conversations.detach': 404,
  'conversations.promptUsage': 404,
  'teams.list': 200,
  'teams.create': 201,
  'teams.get': 404,
  'teams.rename': 404,
  'teams.members': 404,
  'teams.changeRole': 404,
  'teams.removeMember': 404,
  'teams.leave': 404,
  'teams.invitations': 404,
  'teams.invite': 404,
  'teams.resendInvitation': 404,
  'teams.revokeInvitation': 404,
  // An invitation link shows who invites to whom to whoever holds it; only the invitee accepts.
  'teams.previewInvitation': 200,
  'teams.acceptInvitation': 403,
  'plans.entitlements': 404,
  'plans.billing': 200,
  'plans.choose': 404,
  'plans.cancelRequest': 404,
  'plans.adminRequests': 403,
  'plans.adminSetPlan': 403,
  'dashboard.get': 404,
  'mail.outbox': 403,
  'mail.get': 403,
  'mail.sendTest': 403,
  'mail.retry': 403,
  'admin.stats': 403,
  'admin.users': 403,
  'admin.setRole': 403,
  'admin.health': 403,
  'admin.buildStatus': 403,
  'admin.probes': 403,
  'admin.probeCodeSignIn': 403,
  // The stranger's own data: a wrong password refuses the deletion, a password account gets no code.
  'dataRights.startExport': 201,
  'dataRights.latestExport': 200,
  'dataRights.downloadExport': 404,
  'dataRights.deletionCheck': 200,
  'dataRights.sendDeletionCode': 409,
  'dataRights.deleteAccount': 400,
  'dataRights.deleteTeam': 404,
  'system.health': 200,
  'system.openApi': 200,
}

const operations = operationGroups.flatMap((group) => operationsOf(group))

const testApp = await createTestApp()
afterAll(() => testApp.close())

let objects: ApiObjects
let stranger: TestClient
beforeAll(async () => {
  const globalAdmin = new TestClient(testApp)
  await globalAdmin.signUp() // the installation's first account
  const owner = new TestClient(testApp)
  await owner.signUp()
  objects = await seedApiObjects(testApp, owner, globalAdmin)
  stranger = new TestClient(testApp)
  await stranger.signUp()
})

/** The operation's path with the owner's objects, and the query its list filters by team. */
function requestFor(operation: Operation): { path: string; body?: unknown } {
  const route = { method: operation.spec.method, path: `/api${operation.spec.path}` }
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => validParam(route, name, objects))
  const query =
    operation.spec.query && 'teamId' in (operation.spec.query.shape ?? {}) ? `?teamId=${objects.teamId}` : ''
  const body = operation.spec.body ? (sampleBody(route, objects) ?? {}) : undefined
  return { path: `${path}${query}`, body }
}

function answer(client: TestClient, operation: Operation) {
  const { path, body } = requestFor(operation)
  // A copy: a sign-in in one cell must not change who asks in the next.
  return client.copy().request(operation.spec.method, path, { body })
}

it('has a stranger row for every declared operation, and none for an operation that is gone', () => {
  const ids = operations.map((operation) => operation.id)
  expect(ids.filter((id) => !(id in strangerAnswers))).toEqual([])
  expect(Object.keys(strangerAnswers).filter((id) => !ids.includes(id))).toEqual([])
})

describe.each(operations.map((operation) => [operation.id, operation] as const))('%s', (_, operation) => {
  it('refuses anonymous callers unless it is public', async () => {
    const res = await answer(new TestClient(testApp), operation)
    expect(res.status).toBeLessThan(500)
    // Public ones may still refuse for their own reasons (a recovery session, a password).
    if (operation.spec.access !== 'public') {
      expect([res.status, isErrorBody(res.body) && res.body.error.code]).toEqual([401, 'not_authenticated'])
    }
  })

  it('answers a stranger as its row says', async () => {
    const res = await answer(stranger, operation)
    expect([strangerAnswers[operation.id]].flat(), JSON.stringify(res.body).slice(0, 200)).toContain(
      res.status,
    )
  })
})
