import { afterAll, beforeAll, expect, it } from 'vitest'
import { type Query, withQuery } from '../../domain/api/address.ts'
import { apiKeyOperations } from '../../domain/api/api-keys.ts'
import { operationGroups } from '../../domain/api/index.ts'
import { langfuseOperations } from '../../domain/api/langfuse.ts'
import { type Operation, operationsOf, operationUrl } from '../../domain/api/operation.ts'
import { promptLabelOperations } from '../../domain/api/prompt-labels.ts'
import { promptOperations } from '../../domain/api/prompts.ts'
import { teamOperations } from '../../domain/api/teams.ts'
import { type ApiObjects, sampleBody, seedApiObjects, validParam } from '../testing/api-samples.ts'
import { keyPairAuthorization, TestClient } from '../testing/client.ts'
import { reportFigures } from '../testing/reliability-report.ts'
import { addMember, createTeamAs } from '../testing/teams.ts'
import { createTestApp } from '../testing/test-app.ts'
import { servedRoutes } from './operation-routes.ts'

/**
 * Every operation against every kind of caller, in one table: each cell is a real, valid request
 * naming the owner's seeded objects (its team, prompt, conversation, keys, ...), and the status the
 * row expects for that caller. The columns:
 *
 * - anon: nobody signed in;
 * - stranger: signed in, no team, no objects in common with the owner;
 * - member: a plain member of the owner's team;
 * - admin: another admin of the owner's team (not the owner: the owner's personal objects are not
 *   theirs);
 * - owner: the team admin who made every seeded object;
 * - other: the admin of another team;
 * - global: the installation's global admin (in no team of the owner's);
 * - otherKey: a read-write key of another space (Bearer on /api/v1, Basic on /api/public);
 * - readKey: a read-only key of the owner (Bearer: the owner's personal key; Basic: the team's key).
 *
 * Two more callers have their own table (`formerCallers`), beside the first so that its rows stay
 * as they were: a former member and a former admin of the owner's team, each removed by the owner
 * after making a team prompt there. They must be answered as strangers (decision 0242).
 *
 * The rows cover the declared operations (src/domain/api, the Langfuse prompt API's `langfuse.*`
 * included) and the other routes under /api/public (`public <METHOD> <path>`: the MCP server); a
 * new one without a row fails the suite. A cell lists one
 * status or several (`200|429`) where the answer legitimately depends on what ran before (a rate
 * limit, a row an earlier cell made). A leak is a success (2xx) where the row expects a refusal.
 *
 * Order: operations as declared, the ones that delete or leave at the end (in `destructiveLast`
 * order, contained objects before their containers), and inside a row the columns left to right,
 * the owner's cell after the others' so a deletion it is allowed to make comes last.
 */
const actors = [
  'anon',
  'stranger',
  'member',
  'admin',
  'other',
  'global',
  'otherKey',
  'readKey',
  'formerMember',
  'formerAdmin',
  'owner',
] as const
type Actor = (typeof actors)[number]
/** The table's column order (the run order above puts the owner last). */
const columns: Actor[] = [
  'anon',
  'stranger',
  'member',
  'admin',
  'owner',
  'other',
  'global',
  'otherKey',
  'readKey',
]
/** The second table's columns. */
const formerColumns: Actor[] = ['formerMember', 'formerAdmin']

// biome-ignore format: a table, one row per operation, one column per caller
const expected: Record<string, string> = {
  //                                                    anon    stranger member  admin   owner   other   global  otherKey readKey
  'auth.signUp':                                       '201     409      409     409     409     409     409     403      403',
  'auth.signIn':                                       '200     200      200     200     200     200     200     403      403',
  'auth.sendCode':                                     '200|429 200|429  200|429 200|429 200|429 200|429 200|429 403      403',
  'auth.verifyCode':                                   '400|429 400|429  400|429 400|429 400|429 400|429 400|429 403      403',
  'auth.providers':                                    '200     200      200     200     200     200     200     403      403',
  'auth.requestPasswordReset':                         '200|429 200|429  200|429 200|429 200|429 200|429 200|429 403      403',
  'auth.openRecovery':                                 '400     400      400     400     400     400     400     403      403',
  'auth.recovery':                                     '401     401      401     401     401     401     401     403      403',
  'auth.recoverPassword':                              '401     401      401     401     401     401     401     403      403',
  'auth.directReset':                                  '401     401      401     401     401     401     401     403      403',
  'auth.adminSetPassword':                             '401     403      403     403     403     403     404     403      403',
  'auth.reauthenticate':                               '401     400      400     400     400     400     400     403      403',
  'auth.sendReauthenticationCode':                     '401     200|429  200|429 200|429 200|429 200|429 200|429 403      403',
  'auth.reauthenticateWithCode':                       '401     400|429  400|429 400|429 400|429 400|429 400|429 403      403',
  'auth.diagnostics':                                  '401     403      403     403     403     403     200     403      403',
  'account.session':                                   '200     200      200     200     200     200     200     403      403',
  'account.sessions':                                  '401     200      200     200     200     200     200     403      403',
  'account.me':                                        '401     200      200     200     200     200     200     403      403',
  'account.profile':                                   '401     200      200     200     200     200     200     403      403',
  'account.updateProfile':                             '401     200      200     200     200     200     200     403      403',
  'prompts.list':                                      '401     200      200     200     200     200     200     200      200',
  'prompts.tags':                                      '401     200      200     200     200     200     200     200      200',
  'prompts.create':                                    '401     400      201     201     201     400     400     400      403',
  'prompts.exportPrompts':                             '401     404      200     200     200     404     404     404      404',
  'prompts.importPrompts':                             '401     404      200     200     200     404     404     404      403',
  'prompts.compile':                                   '401     404      200     200     200     404     404     404      404',
  'prompts.usedBy':                                    '401     404      200     200     200     404     404     404      404',
  'prompts.get':                                       '401     404      200     200     200     404     404     404      404',
  'prompts.update':                                    '401     404      403     403     200     404     404     404      403',
  'prompts.versions':                                  '401     404      200     200     200     404     404     404      404',
  'prompts.version':                                   '401     404      200     200     200     404     404     404      404',
  'prompts.resolvedVersion':                           '401     404      200     200     200     404     404     404      404',
  'prompts.setCurrentVersion':                         '401     404      403     403     200     404     404     404      403',
  'promptLabels.set':                                  '401     404      403     403     200     404     404     404      403',
  'promptLabels.history':                              '401     404      200     200     200     404     404     404      404',
  'promptLabels.revert':                               '401     404      403     403     200     404     404     404      403',
  'promptLabels.protectedLabels':                      '401     404      200     200     200     404     200     403      403',
  'promptLabels.setProtectedLabels':                   '401     404      403     200     200     404     200     403      403',
  'conversations.list':                                '401     200      200     200     200     200     200     403      403',
  'conversations.create':                              '401     404      201     201     201     404     404     403      403',
  'conversations.get':                                 '401     404      200     200     200     404     200     403      403',
  'conversations.update':                              '401     404      403     200     200     404     200     403      403',
  'conversations.messages':                            '401     404      200     200     200     404     200     403      403',
  'conversations.appendMessage':                       '401     404      201     201     201     404     404     403      403',
  'conversations.generateReply':                       '401     404      400     400     400     404     400     403      403',
  'conversations.updateMessage':                       '401     404      403     200     200     404     200     403      403',
  'conversations.attachments':                         '401     404      200     200     200     404     200     403      403',
  'conversations.attach':                              '401     404      403     201     409     404     404     403      403',
  'conversations.promptUsage':                         '401     404      200     200     200     404     404     403      403',
  'teams.list':                                        '401     200      200     200     200     200     200     403      403',
  'teams.create':                                      '401     201      201     201     201     201     201     403      403',
  'teams.get':                                         '401     404      200     200     200     404     200     403      403',
  'teams.rename':                                      '401     404      403     200     200     404     200     403      403',
  'teams.members':                                     '401     404      200     200     200     404     200     403      403',
  'teams.changeRole':                                  '401     404      403     200     200     404     200     403      403',
  'teams.invitations':                                 '401     404      200     200     200     404     200     403      403',
  'teams.invite':                                      '401     404      403     201     409     404     409     403      403',
  'teams.resendInvitation':                            '401     404      403     200     200     404     200     403      403',
  'teams.previewInvitation':                           '200     200      200     200     200     200     200     403      403',
  'teams.acceptInvitation':                            '401     403      403     403     403     403     403     403      403',
  'plans.entitlements':                                '401     404      200     200     200     404     200     403      403',
  'plans.billing':                                     '401     200      200     200     200     200     200     403      403',
  'plans.choose':                                      '401     404      403     200     409     404     409     403      403',
  'plans.adminRequests':                               '401     403      403     403     403     403     200     403      403',
  'plans.adminSetPlan':                                '401     403      403     403     403     403     200     403      403',
  'dashboard.get':                                     '401     404      200     200     200     404     404     403      403',
  'mail.outbox':                                       '401     403      403     403     403     403     200     403      403',
  'mail.get':                                          '401     403      403     403     403     403     200     403      403',
  'mail.sendTest':                                     '401     403      403     403     403     403     201     403      403',
  'mail.retry':                                        '401     403      403     403     403     403     409     403      403',
  'apiKeys.list':                                      '401     404      403     200     200     404     200     403      403',
  'apiKeys.create':                                    '401     404      403     201     201     404     201     403      403',
  'admin.stats':                                       '401     403      403     403     403     403     200     403      403',
  'admin.users':                                       '401     403      403     403     403     403     200     403      403',
  'admin.teams':                                       '401     403      403     403     403     403     200     403      403',
  'admin.setRole':                                     '401     403      403     403     403     403     200     403      403',
  'admin.health':                                      '401     403      403     403     403     403     200     403      403',
  'admin.buildStatus':                                 '401     403      403     403     403     403     200     403      403',
  'admin.probes':                                      '401     403      403     403     403     403     200     403      403',
  // 429 after the re-authentication row mailed the global admin a code (one code a minute per address).
  'admin.probeCodeSignIn':                             '401     403      403     403     403     403     200|429 403      403',
  'dataRights.startExport':                            '401     201      201     201     201     201     201     403      403',
  'dataRights.latestExport':                           '401     200      200     200     200     200     200     403      403',
  'dataRights.downloadExport':                         '401     404      404     404     200     404     404     403      403',
  'dataRights.deletionCheck':                          '401     200      200     200     200     200     200     403      403',
  'dataRights.sendDeletionCode':                       '401     409      409     409     409     409     409     403      403',
  'audit.list':                                        '401     403      403     403     403     403     200     403      403',
  'audit.export':                                      '401     403      403     403     403     403     200     403      403',
  'audit.teams':                                       '401     403      403     403     403     403     200     403      403',
  'audit.teamList':                                    '401     404      403     200     200     404     200     403      403',
  'audit.teamExport':                                  '401     404      403     200     200     404     200     403      403',
  'webhooks.list':                                     '401     404      403     200     200     404     200     403      403',
  'webhooks.create':                                   '401     404      403     201     201     404     201     403      403',
  'webhooks.update':                                   '401     404      403     200     200     404     200     403      403',
  'webhooks.revealSecret':                             '401     404      403     200     200     404     200     403      403',
  'webhooks.rotateSecret':                             '401     404      403     200     200     404     200     403      403',
  'webhooks.sendTest':                                 '401     404      403     409     409     404     409     403      403',
  'webhooks.deliveries':                               '401     404      403     200     200     404     200     403      403',
  'webhooks.redeliver':                                '401     404      403     409     409     404     409     403      403',
  'models.list':                                       '401     404      403     200     200     404     200     403      403',
  'models.usable':                                     '401     200      200     200     200     200     200     200      200',
  'models.create':                                     '401     404      403     201     201     404     201     403      403',
  'models.update':                                     '401     404      403     200     200     404     200     403      403',
  'models.fetchModels':                                '401     404      403     400     400     404     400     403      403',
  'models.run':                                        '401     400      404     404     404     400     400     400      403',
  'models.variables':                                  '401     404      200     200     200     404     404     403      403',
  'system.health':                                     '200     200      200     200     200     200     200     200      200',
  'system.openApi':                                    '200     200      200     200     200     200     200     403      403',
  'langfuse.list':                                     '401     401      401     401     200     401     401     200      200',
  'langfuse.create':                                   '401     401      401     401     201     401     401     201      403',
  'langfuse.get':                                      '401     401      401     401     404     401     401     404      404',
  'langfuse.updateLabels':                             '401     401      401     401     404     401     401     404      403',
  'langfuse.delete':                                   '401     401      401     401     404     401     401     404      403',
  'langfuse.legacyGet':                                '401     401      401     401     404     401     401     404      404',
  'langfuse.legacyCreate':                             '401     401      401     401     201     401     401     201      403',
  // The MCP endpoint asks a JSON-RPC client's Accept header (406 without it) once the key is admitted.
  'public POST /mcp':                                  '401     401      401     401     406     401     401     406      406',
  'promptLabels.remove':                               '401     404      403     403     204     404     404     404      403',
  'conversations.detach':                              '401     404      403     204     404     404     404     403      403',
  'conversations.deleteMessage':                       '401     404      403     204     404     404     404     403      403',
  'conversations.delete':                              '401     404      403     204     404     404     404     403      403',
  'prompts.delete':                                    '401     404      403     403     204     404     404     404      403',
  'webhooks.delete':                                   '401     404      403     204     404     404     404     403      403',
  'models.delete':                                     '401     404      403     204     404     404     404     403      403',
  'apiKeys.revoke':                                    '401     404      404     404     204     404     404     403      403',
  'teams.revokeInvitation':                            '401     404      403     204     409     404     409     403      403',
  'plans.cancelRequest':                               '401     404      404     404     204     404     404     403      403',
  'dataRights.deleteTeam':                             '401     404      403     400     400     404     400     403      403',
  'dataRights.deleteAccount':                          '401     400      400     400     400     400     400     403      403',
  'teams.removeMember':                                '401     404      403     204     404     404     404     403      403',
  'teams.leave':                                       '401     404      404     204     409     404     404     403      403',
}

// biome-ignore format: a table, one row per operation, one column per former caller
const formerCallers: Record<string, string> = {
  //                                                    formerMember formerAdmin
  'auth.signUp':                                       '409          409',
  'auth.signIn':                                       '200          200',
  'auth.sendCode':                                     '200|429      200|429',
  'auth.verifyCode':                                   '400|429      400|429',
  'auth.providers':                                    '200          200',
  'auth.reauthenticate':                               '400          400',
  'auth.sendReauthenticationCode':                     '200|429      200|429',
  'auth.reauthenticateWithCode':                       '400|429      400|429',
  'auth.requestPasswordReset':                         '200|429      200|429',
  'auth.openRecovery':                                 '400          400',
  'auth.recovery':                                     '401          401',
  'auth.recoverPassword':                              '401          401',
  'auth.directReset':                                  '401          401',
  'auth.adminSetPassword':                             '403          403',
  'auth.diagnostics':                                  '403          403',
  'account.session':                                   '200          200',
  'account.sessions':                                  '200          200',
  'account.me':                                        '200          200',
  'account.profile':                                   '200          200',
  'account.updateProfile':                             '200          200',
  'prompts.list':                                      '200          200',
  'prompts.tags':                                      '200          200',
  'prompts.create':                                    '400          400',
  'prompts.exportPrompts':                             '404          404',
  'prompts.importPrompts':                             '404          404',
  'prompts.compile':                                   '404          404',
  'prompts.usedBy':                                    '404          404',
  'prompts.get':                                       '404          404',
  'prompts.update':                                    '404          404',
  'prompts.versions':                                  '404          404',
  'prompts.version':                                   '404          404',
  'prompts.resolvedVersion':                           '404          404',
  'prompts.setCurrentVersion':                         '404          404',
  'promptLabels.set':                                  '404          404',
  'promptLabels.history':                              '404          404',
  'promptLabels.revert':                               '404          404',
  'promptLabels.protectedLabels':                      '404          404',
  'promptLabels.setProtectedLabels':                   '404          404',
  'conversations.list':                                '200          200',
  'conversations.create':                              '404          404',
  'conversations.get':                                 '404          404',
  'conversations.update':                              '404          404',
  'conversations.messages':                            '404          404',
  'conversations.appendMessage':                       '404          404',
  'conversations.generateReply':                       '404          404',
  'conversations.updateMessage':                       '404          404',
  'conversations.attachments':                         '404          404',
  'conversations.attach':                              '404          404',
  'conversations.promptUsage':                         '404          404',
  'teams.list':                                        '200          200',
  'teams.create':                                      '201          201',
  'teams.get':                                         '404          404',
  'teams.rename':                                      '404          404',
  'teams.members':                                     '404          404',
  'teams.changeRole':                                  '404          404',
  'teams.invitations':                                 '404          404',
  'teams.invite':                                      '404          404',
  'teams.resendInvitation':                            '404          404',
  'teams.previewInvitation':                           '200          200',
  'teams.acceptInvitation':                            '403          403',
  'plans.entitlements':                                '404          404',
  'plans.billing':                                     '200          200',
  'plans.choose':                                      '404          404',
  'plans.adminRequests':                               '403          403',
  'plans.adminSetPlan':                                '403          403',
  'dashboard.get':                                     '404          404',
  'mail.outbox':                                       '403          403',
  'mail.get':                                          '403          403',
  'mail.sendTest':                                     '403          403',
  'mail.retry':                                        '403          403',
  'apiKeys.list':                                      '404          404',
  'apiKeys.create':                                    '404          404',
  'admin.stats':                                       '403          403',
  'admin.users':                                       '403          403',
  'admin.teams':                                       '403          403',
  'admin.setRole':                                     '403          403',
  'admin.health':                                      '403          403',
  'admin.buildStatus':                                 '403          403',
  'admin.probes':                                      '403          403',
  'admin.probeCodeSignIn':                             '403          403',
  'dataRights.startExport':                            '201          201',
  'dataRights.latestExport':                           '200          200',
  'dataRights.downloadExport':                         '404          404',
  'dataRights.deletionCheck':                          '200          200',
  'dataRights.sendDeletionCode':                       '409          409',
  'audit.list':                                        '403          403',
  'audit.export':                                      '403          403',
  'audit.teams':                                       '403          403',
  'audit.teamList':                                    '404          404',
  'audit.teamExport':                                  '404          404',
  'webhooks.list':                                     '404          404',
  'webhooks.create':                                   '404          404',
  'webhooks.update':                                   '404          404',
  'webhooks.revealSecret':                             '404          404',
  'webhooks.rotateSecret':                             '404          404',
  'webhooks.sendTest':                                 '404          404',
  'webhooks.deliveries':                               '404          404',
  'webhooks.redeliver':                                '404          404',
  'models.list':                                       '404          404',
  'models.usable':                                     '200          200',
  'models.create':                                     '404          404',
  'models.update':                                     '404          404',
  'models.fetchModels':                                '404          404',
  'models.run':                                        '400          400',
  'models.variables':                                  '404          404',
  'system.health':                                     '200          200',
  'system.openApi':                                    '200          200',
  'langfuse.list':                                     '401          401',
  'langfuse.create':                                   '401          401',
  'langfuse.get':                                      '401          401',
  'langfuse.updateLabels':                             '401          401',
  'langfuse.delete':                                   '401          401',
  'langfuse.legacyGet':                                '401          401',
  'langfuse.legacyCreate':                             '401          401',
  'public POST /mcp':                                  '401          401',
  'promptLabels.remove':                               '404          404',
  'conversations.detach':                              '404          404',
  'conversations.deleteMessage':                       '404          404',
  'conversations.delete':                              '404          404',
  'prompts.delete':                                    '404          404',
  'webhooks.delete':                                   '404          404',
  'models.delete':                                     '404          404',
  'apiKeys.revoke':                                    '404          404',
  'teams.revokeInvitation':                            '404          404',
  'plans.cancelRequest':                               '404          404',
  'dataRights.deleteTeam':                             '404          404',
  'dataRights.deleteAccount':                          '400          400',
  'teams.removeMember':                                '404          404',
  'teams.leave':                                       '404          404',
}

/** Destructive operations, run after every other row, in this order. */
const destructiveLast = [
  'promptLabels.remove',
  'conversations.detach',
  'conversations.deleteMessage',
  'conversations.delete',
  'prompts.delete',
  'webhooks.delete',
  'models.delete',
  'apiKeys.revoke',
  // Sends a new link: the token the preview and the accept cells use is gone after it.
  'teams.resendInvitation',
  'teams.revokeInvitation',
  'plans.cancelRequest',
  'dataRights.deleteTeam',
  'dataRights.deleteAccount',
  'teams.removeMember',
  'teams.leave',
]

const record = process.env.MATRIX_RECORD === '1'

type Row = { id: string; method: string; path: string; keyPair: boolean; operation?: Operation }

const testApp = await createTestApp()
afterAll(() => testApp.close())

const declared: Row[] = operationGroups
  .flatMap((group) => operationsOf(group))
  .map((operation) => ({
    id: operation.id,
    method: operation.spec.method,
    path: `/api${operation.spec.path}`,
    keyPair: operation.spec.access === 'key-pair',
    operation,
  }))
const declaredRoutes = new Set(declared.map((row) => `${row.method} ${row.path}`))
/** Routes under /api/public that no declaration makes (the MCP server). */
const publicRows: Row[] = [
  ...new Map(
    servedRoutes(testApp.app)
      .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/public/'))
      .filter((route) => !declaredRoutes.has(`${route.method} ${route.path}`))
      .map((route) => [`${route.method} ${route.path}`, route]),
  ).values(),
].map((route) => ({
  id: `public ${route.method} ${route.path.slice('/api/public'.length)}`,
  method: route.method,
  path: route.path,
  keyPair: true,
}))
const rank = (row: Row) => {
  const index = destructiveLast.indexOf(row.id)
  return index < 0 ? -1 : index
}
const rows = [...declared, ...publicRows].sort((a, b) => rank(a) - rank(b))

function parseCell(cell: string): number[] {
  return cell.split('|').map(Number)
}
function cellsIn(table: Record<string, string>, tableColumns: Actor[], id: string) {
  const line = table[id]
  if (line === undefined) return undefined
  const cells = line.trim().split(/\s+/)
  if (cells.length !== tableColumns.length) {
    throw new Error(`${id}: ${cells.length} cells, not ${tableColumns.length}`)
  }
  return Object.fromEntries(tableColumns.map((actor, index) => [actor, parseCell(cells[index]!)]))
}
function cellsOf(id: string): Record<Actor, number[]> | undefined {
  const main = cellsIn(expected, columns, id)
  const former = cellsIn(formerCallers, formerColumns, id)
  if (!main || !former) return undefined
  return { ...main, ...former } as Record<Actor, number[]>
}

let fx: ApiObjects
/** How each actor asks: a signed-in client, and the Authorization header it adds. */
const callers = {} as Record<Actor, { client: TestClient; v1?: string; public?: string }>

beforeAll(async () => {
  const global = new TestClient(testApp)
  await global.signUp() // the installation's first account
  const owner = new TestClient(testApp)
  await owner.signUp()
  fx = await seedApiObjects(testApp, owner, global)
  const stranger = new TestClient(testApp)
  await stranger.signUp()
  const admin = new TestClient(testApp)
  await admin.signUp()
  await addMember(testApp, owner, fx.teamId, admin, 'admin')
  const other = new TestClient(testApp)
  await other.signUp()
  const otherTeam = await createTeamAs(other, 'Other')
  const keyOf = async (client: TestClient, scope: 'read' | 'read_write', teamId?: string) => {
    const res = await client.call(apiKeyOperations.create, {
      body: { name: `Matrix ${scope}`, scope, ...(teamId && { teamId }) },
    })
    if (res.status !== 201) throw new Error(`key: ${res.status} ${JSON.stringify(res.body)}`)
    return {
      bearer: `Bearer ${res.body.secretKey}`,
      basic: keyPairAuthorization(res.body),
    }
  }
  const otherPersonal = await keyOf(other, 'read_write')
  const otherTeamKey = await keyOf(other, 'read_write', otherTeam.id)
  const ownerRead = await keyOf(owner, 'read')
  const teamRead = await keyOf(owner, 'read', fx.teamId)
  // Former callers: each made a team prompt (and the former admin a team key) while in the team.
  const former = async (role: 'member' | 'admin') => {
    const client = new TestClient(testApp)
    const user = await client.signUp()
    await addMember(testApp, owner, fx.teamId, client, role)
    const made = await client.call(promptOperations.create, {
      body: { title: `Made by a ${role}`, body: 'Mine', visibility: 'team', teamId: fx.teamId },
    })
    if (made.status !== 201) throw new Error(`former ${role}'s prompt: ${made.status}`)
    if (role === 'admin') await keyOf(client, 'read_write', fx.teamId)
    const removed = await owner.call(teamOperations.removeMember, {
      params: { teamId: fx.teamId, userId: user.id },
    })
    if (removed.status !== 204) throw new Error(`removing the former ${role}: ${removed.status}`)
    return client
  }
  const formerMember = await former('member')
  const formerAdmin = await former('admin')
  const anonymous = new TestClient(testApp)
  Object.assign(callers, {
    anon: { client: anonymous },
    stranger: { client: stranger },
    member: { client: fx.member },
    admin: { client: admin },
    owner: { client: owner, public: fx.basicAuth },
    other: { client: other },
    global: { client: global },
    otherKey: { client: anonymous, v1: otherPersonal.bearer, public: otherTeamKey.basic },
    readKey: { client: anonymous, v1: ownerRead.bearer, public: teamRead.basic },
    formerMember: { client: formerMember },
    formerAdmin: { client: formerAdmin },
  })
})

/** The row's request with the owner's objects, and the query its list filters by team. */
function requestFor(row: Row): { path: string; body?: unknown } {
  const route = { method: row.method, path: row.path }
  const path = route.path.replace(/:(\w+)/g, (_, name: string) => validParam(route, name, fx))
  const spec = row.operation?.spec
  let query = spec?.query && 'teamId' in (spec.query.shape ?? {}) ? `?teamId=${fx.teamId}` : ''
  if (row.path === '/api/public/prompts' && row.method === 'GET') query = '?name=Fuzzed'
  const hasBody = spec ? Boolean(spec.body) : row.method !== 'GET' && row.method !== 'DELETE'
  const body = hasBody ? (sampleBody(route, fx) ?? {}) : undefined
  return { path: `${path}${query}`, body }
}

async function ask(actor: Actor, row: Row): Promise<{ status: number; body: unknown }> {
  const caller = callers[actor]
  const authorization = row.keyPair ? caller.public : caller.v1
  const { path, body } = requestFor(row)
  // A copy: a sign-in in one cell must not change who asks in the next.
  return caller.client.copy().request(row.method, path, {
    body,
    headers: authorization ? { Authorization: authorization } : {},
  })
}

it('has a row for every operation and Langfuse route, and none for one that is gone', () => {
  const ids = rows.map((row) => row.id)
  if (record) return
  expect(ids.filter((id) => !(id in expected))).toEqual([])
  expect(Object.keys(expected).filter((id) => !ids.includes(id))).toEqual([])
  expect(ids.filter((id) => !(id in formerCallers))).toEqual([])
  expect(Object.keys(formerCallers).filter((id) => !ids.includes(id))).toEqual([])
  expect(destructiveLast.filter((id) => !ids.includes(id))).toEqual([])
})

it('answers every caller as its row says, with no leak', async () => {
  const mismatches: string[] = []
  const leaks: string[] = []
  const recorded: string[] = []
  let cells = 0
  for (const row of rows) {
    const want = cellsOf(row.id)
    const got = {} as Record<Actor, number>
    for (const actor of actors) {
      const res = await ask(actor, row)
      got[actor] = res.status
      cells += 1
      const cell = want?.[actor]
      if (!cell) continue
      const refusal = cell.every((status) => status >= 300)
      const detail = `${row.id} as ${actor}: ${res.status}, expected ${cell.join('|')} ${JSON.stringify(res.body).slice(0, 160)}`
      if (refusal && res.status >= 200 && res.status < 300) leaks.push(detail)
      if (!cell.includes(res.status)) mismatches.push(detail)
    }
    recorded.push(
      `  '${row.id}': '${columns.map((actor) => got[actor]).join(' ')}' | '${formerColumns.map((actor) => got[actor]).join(' ')}',`,
    )
  }
  if (record) process.stdout.write(`${recorded.join('\n')}\n`)
  reportFigures('authorization-matrix', {
    rows: rows.length,
    actors: actors.length,
    cells,
    leaks: leaks.length,
    mismatches: mismatches.length,
  })
  expect(leaks).toEqual([])
  expect(mismatches).toEqual([])
}, 300_000)

/**
 * Key movers: the owner, a team admin, moves the team's protected `production` signed in, with their
 * own write key (Bearer on /api/v1) and with the team's write key (Basic on the Langfuse routes), on
 * a prompt of two versions with production on the second. A key never moves a protected label,
 * never deletes what holds one and never changes which labels are protected, whoever's key it
 * is; a personal key does not even reach the team's prompt (404, decision 0242). '-': that door does not take the caller.
 */
const keyMoverColumns = ['session', 'personalKey', 'teamKey'] as const
// biome-ignore format: a table, one row per operation that moves or takes a label
const keyMoverExpected: Record<string, string> = {
  //                                                    session personalKey teamKey
  'prompts.setCurrentVersion':                         '200     404         -',
  'promptLabels.set':                                  '200     404         -',
  'promptLabels.revert':                               '200     404         -',
  'promptLabels.remove':                               '204     404         -',
  'prompts.delete':                                    '204     404         -',
  'promptLabels.setProtectedLabels':                   '200     403         -',
  'langfuse.create':                                   '-       -           403',
  'langfuse.updateLabels':                             '-       -           403',
  'langfuse.delete':                                   '-       -           403',
}

it('refuses every key the moves of a protected label, at every door', async () => {
  const owner = callers.owner.client
  const key = async (teamId?: string) => {
    const res = await owner.call(apiKeyOperations.create, {
      body: { name: 'Key mover', scope: 'read_write', ...(teamId && { teamId }) },
    })
    return {
      bearer: `Bearer ${res.body.secretKey}`,
      basic: keyPairAuthorization(res.body),
    }
  }
  const team = await createTeamAs(owner, 'Key movers')
  await owner.call(promptLabelOperations.setProtectedLabels, {
    params: { teamId: team.id },
    body: { labels: ['production'] },
  })
  const authorization = {
    session: undefined,
    personalKey: (await key()).bearer,
    teamKey: (await key(team.id)).basic,
  }
  const mismatches: string[] = []
  for (const [id, line] of Object.entries(keyMoverExpected)) {
    const created = await owner.call(promptOperations.create, {
      body: { title: id, body: 'one', visibility: 'team', teamId: team.id },
    })
    const prompt = created.body
    await owner.call(promptOperations.update, { params: { id: prompt.id }, body: { body: 'two' } })
    const versions = await owner.call(promptOperations.versions, { params: { id: prompt.id } })
    const v1 = versions.body.items.find((version) => version.versionNumber === 1)!.id
    const history = await owner.call(promptLabelOperations.history, { params: { id: prompt.id } })
    // What each operation is sent: its path parameters, its body (none for the revert) and query.
    const requests: Record<string, [Operation, Record<string, string>, unknown?, Query?]> = {
      'prompts.setCurrentVersion': [promptOperations.setCurrentVersion, { id: prompt.id }, { versionId: v1 }],
      'promptLabels.set': [
        promptLabelOperations.set,
        { id: prompt.id },
        { label: 'production', versionId: v1 },
      ],
      'promptLabels.revert': [
        promptLabelOperations.revert,
        { id: prompt.id, eventId: history.body.items[0]!.id },
      ],
      'promptLabels.remove': [promptLabelOperations.remove, { id: prompt.id, label: 'production' }],
      'prompts.delete': [promptOperations.delete, { id: prompt.id }],
      'promptLabels.setProtectedLabels': [
        promptLabelOperations.setProtectedLabels,
        { teamId: team.id },
        { labels: ['production'] },
      ],
      'langfuse.create': [
        langfuseOperations.create,
        {},
        { name: prompt.name, prompt: 'x', labels: ['production'] },
      ],
      'langfuse.updateLabels': [
        langfuseOperations.updateLabels,
        { name: prompt.name, version: '1' },
        { newLabels: ['production'] },
      ],
      'langfuse.delete': [langfuseOperations.delete, { name: prompt.name }, undefined, { version: 2 }],
    }
    const [operation, params, body, query] = requests[id]!
    const path = withQuery(operationUrl(operation.spec, params), query)
    const cells = line.trim().split(/\s+/)
    // Keys first: the session's allowed move (or delete) comes last.
    for (const column of [...keyMoverColumns].reverse()) {
      const cell = cells[keyMoverColumns.indexOf(column)]!
      if (cell === '-') continue
      const auth = authorization[column]
      const client = auth ? new TestClient(testApp) : owner.copy()
      const res = await client.request(operation.spec.method, path, {
        body,
        headers: auth ? { Authorization: auth } : {},
      })
      if (res.status !== Number(cell)) {
        mismatches.push(
          `${id} as ${column}: ${res.status}, expected ${cell} ${JSON.stringify(res.body).slice(0, 160)}`,
        )
      }
    }
  }
  expect(mismatches).toEqual([])
})
