import type { Conversation, Message, MessageAttachment } from '../../domain/conversations.ts'
import type { PromptDetail } from '../../domain/prompts.ts'
import type { TeamInvitation } from '../../domain/teams.ts'
import { modelProviders, webhookDeliveries, webhookEndpoints } from '../db/schema/index.ts'
import { providerKeyOf, sealApiKey } from '../modules/models/key-sealing.ts'
import { DEFAULT_PASSWORD, keyPairAuthorization, TestClient, uniqueEmail } from './client.ts'
import { addMember, createTeamAs, invitationLinkFor, inviteAs } from './teams.ts'
import type { TestApp } from './test-app.ts'

const NEW_PASSWORD = 'a long enough new passphrase'

/** The ids of one object of each kind, and who owns them. */
export interface ApiObjects {
  owner: TestClient
  ownerEmail: string
  /** The team's plain member (role 'member'), signed in. */
  member: TestClient
  teamId: string
  memberId: string
  invitationId: string
  token: string
  promptId: string
  versionId: string
  conversationId: string
  messageId: string
  attachmentId: string
  mailId: string
  planRequestId: string
  apiKeyId: string
  labelEventId: string
  /** The owner's data export (started, not built). */
  exportId: string
  /** A webhook endpoint of the owner's team, and one of its deliveries. */
  webhookId: string
  webhookDeliveryId: string
  /** A model provider of the owner's team (its base URL on a reserved address: nothing is called). */
  modelProviderId: string
  /** Basic auth with the owner's read-write key, so the prompt API's routes get past authentication. */
  basicAuth: string
}

/**
 * One of each object the API works on, made by `owner` (in its team, with `member` added, a
 * pending invitation, a team prompt, a team conversation with a message and an attachment, a
 * pending request for Pro) and
 * one outbox mail read by `admin` (a global admin).
 */
export async function seedApiObjects(
  testApp: TestApp,
  owner: TestClient,
  admin: TestClient,
): Promise<ApiObjects> {
  const ownerEmail = owner.user!.email
  const team = await createTeamAs(owner, 'Fuzz')
  const member = new TestClient(testApp)
  const { id: memberId } = await member.signUp()
  await addMember(testApp, owner, team.id, member)
  const pendingEmail = uniqueEmail('pending')
  const invitation: TeamInvitation = await inviteAs(owner, team.id, pendingEmail)
  const { token } = await invitationLinkFor(testApp, pendingEmail)
  const prompt = await owner.post<PromptDetail>('/api/v1/prompts', {
    title: 'Fuzzed',
    body: 'Body',
    visibility: 'team',
    teamId: team.id,
  })
  const promptId = prompt.body.id
  const versionId = prompt.body.currentVersionId!
  const conversation = await owner.post<Conversation>('/api/v1/conversations', {
    title: 'Fuzzed',
    teamId: team.id,
  })
  const conversationId = conversation.body.id
  const message = await owner.post<Message>(`/api/v1/conversations/${conversationId}/messages`, {
    content: { text: 'Hello' },
  })
  const messageId = message.body.id
  const attachment = await owner.post<MessageAttachment>(`/api/v1/messages/${messageId}/attachments`, {
    promptId,
  })
  const planRequest = await owner.post<{ request: { id: string } | null }>('/api/v1/billing/plan', {
    plan: 'pro',
  })
  if (!planRequest.body.request) throw new Error(`no plan request: ${JSON.stringify(planRequest.body)}`)
  const apiKey = await owner.post<{ id: string; publicKey: string; secretKey: string }>('/api/v1/api-keys', {
    name: 'Fuzz',
    scope: 'read_write',
  })
  const labelEvents = await owner.get<{ items: { id: string }[] }>(
    `/api/v1/prompts/${promptId}/label-history`,
  )
  const outbox = await admin.get<{ items: { id: string }[] }>('/api/v1/mail-outbox')
  const dataExport = await owner.post<{ id: string }>('/api/v1/me/exports')
  // Written directly: the API refuses a target it cannot resolve to a public address.
  const [webhook] = await testApp.database.db
    .insert(webhookEndpoints)
    .values({
      teamId: team.id,
      url: 'https://93.184.215.14/hook',
      events: ['prompt.created'],
      secret: 'whsec_MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=',
      enabled: false,
    })
    .returning({ id: webhookEndpoints.id })
  const [delivery] = await testApp.database.db
    .insert(webhookDeliveries)
    .values({ endpointId: webhook!.id, eventId: 'evt_fuzz', eventType: 'webhook.test', payload: '{}' })
    .returning({ id: webhookDeliveries.id })
  const [provider] = await testApp.database.db
    .insert(modelProviders)
    .values({
      teamId: team.id,
      kind: 'openai_compatible',
      name: 'Fuzz',
      baseUrl: 'http://192.0.2.1/v1',
      sealedKey: sealApiKey(providerKeyOf(testApp.config), 'sk-fuzz'),
      keyHint: '…fuzz',
      models: ['fuzz-model'],
      defaultModel: 'fuzz-model',
    })
    .returning({ id: modelProviders.id })
  return {
    owner,
    ownerEmail,
    member,
    teamId: team.id,
    memberId,
    invitationId: invitation.id,
    token,
    promptId,
    versionId,
    conversationId,
    messageId,
    attachmentId: attachment.body.id,
    mailId: outbox.body.items[0]!.id,
    planRequestId: planRequest.body.request.id,
    apiKeyId: apiKey.body.id,
    labelEventId: labelEvents.body.items[0]!.id,
    exportId: dataExport.body.id,
    webhookId: webhook!.id,
    webhookDeliveryId: delivery!.id,
    modelProviderId: provider!.id,
    basicAuth: keyPairAuthorization(apiKey.body),
  }
}

/** A valid body for every route that reads one. */
export function sampleBody(
  route: { method: string; path: string },
  fx: ApiObjects,
): Record<string, unknown> | undefined {
  const samples: Record<string, () => Record<string, unknown>> = {
    'POST /api/v1/auth/admin/set-password': () => ({
      email: 'nobody@example.com',
      newPassword: NEW_PASSWORD,
    }),
    'POST /api/v1/auth/code/send': () => ({ email: 'fuzz-code@example.com' }),
    'POST /api/v1/auth/code/verify': () => ({ email: 'fuzz-code@example.com', code: '123456' }),
    'POST /api/v1/auth/direct-reset': () => ({
      email: 'nobody@example.com',
      currentPassword: DEFAULT_PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
    'POST /api/v1/auth/password-reset': () => ({ email: 'nobody@example.com', newTab: false }),
    'POST /api/v1/auth/recovery': () => ({ tokenHash: 'made-up-token' }),
    // Never the right password or code: signing in again would replace the caller's session.
    'POST /api/v1/auth/reauthenticate': () => ({ password: 'not the account password' }),
    'POST /api/v1/auth/reauthenticate/code': () => ({ code: '123456' }),
    'POST /api/v1/auth/recovery/password': () => ({ password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD }),
    'POST /api/v1/auth/sign-in': () => ({ email: fx.ownerEmail, password: DEFAULT_PASSWORD }),
    'POST /api/v1/auth/sign-up': () => ({
      email: 'fuzz-sign-up@example.com',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
      acceptTerms: true,
    }),
    'POST /api/v1/conversations': () => ({
      title: 'New',
      teamId: fx.teamId,
      firstMessage: 'Hi',
      tags: ['a'],
    }),
    'PATCH /api/v1/conversations/:id': () => ({ title: 'Renamed', tags: ['a', 'b'] }),
    'POST /api/v1/conversations/:id/messages': () => ({
      role: 'assistant',
      content: { text: 'Reply' },
      model: 'gpt',
      tokenCount: 3,
      attachments: [{ promptId: fx.promptId, promptVersionId: fx.versionId }],
    }),
    'PATCH /api/v1/messages/:id': () => ({ content: { text: 'Edited' }, role: 'user' }),
    'POST /api/v1/messages/:id/attachments': () => ({
      promptId: fx.promptId,
      promptVersionId: fx.versionId,
      notes: 'Why',
    }),
    'POST /api/v1/mail-outbox/test': () => ({ to: 'fuzz-mail@example.com' }),
    'POST /api/v1/billing/plan': () => ({ plan: 'free', teamId: fx.teamId }),
    // Reads no body; sent one anyway, it is ignored.
    'POST /api/v1/admin/probes/code-sign-in': () => ({}),
    'PUT /api/v1/admin/users/:userId/role': () => ({ role: 'user', confirmSelf: false }),
    'PUT /api/v1/admin/plans': () => ({ context: 'team', subjectId: fx.teamId, plan: 'team' }),
    'PATCH /api/v1/profile': () => ({
      displayName: 'Fuzz',
      locale: 'en',
      timezone: 'UTC',
      theme: 'dark',
      notifications: { mentions: { in_app: true, email: false }, invites: { in_app: false, email: true } },
    }),
    'POST /api/v1/prompts': () => ({
      title: 'New',
      description: 'About',
      body: 'Body',
      tags: ['a'],
      visibility: 'team',
      teamId: fx.teamId,
    }),
    'PATCH /api/v1/prompts/:id': () => ({
      title: 'Edited',
      description: 'About',
      body: 'Body',
      changelog: 'Why',
      tags: ['a'],
      visibility: 'team',
      teamId: fx.teamId,
      baseVersionId: fx.versionId,
    }),
    'PUT /api/v1/prompts/:id/current-version': () => ({ versionId: fx.versionId }),
    'POST /api/v1/prompts/import': () => ({
      document: { prompts: [{ name: 'fuzz/imported', title: 'Imported', versions: [{ body: 'Body' }] }] },
      teamId: fx.teamId,
      dryRun: true,
    }),
    'POST /api/v1/prompts/:id/compile': () => ({ values: { topic: 'fuzz' } }),
    'POST /api/v1/teams': () => ({ name: 'Another' }),
    'POST /api/v1/api-keys': () => ({ name: 'Key', scope: 'read', teamId: fx.teamId }),
    'POST /api/v1/webhooks': () => ({
      url: 'https://93.184.215.14/hook',
      description: 'Fuzz',
      events: ['prompt.created'],
      teamId: fx.teamId,
    }),
    'PATCH /api/v1/webhooks/:id': () => ({ description: 'Edited', events: ['prompt.updated'] }),
    'POST /api/v1/model-providers': () => ({
      kind: 'openai_compatible',
      name: 'Fuzz',
      baseUrl: 'https://93.184.215.14/v1',
      apiKey: 'sk-fuzz',
      teamId: fx.teamId,
    }),
    'PATCH /api/v1/model-providers/:id': () => ({ name: 'Renamed' }),
    'POST /api/v1/prompts/:id/run': () => ({ providerId: fx.modelProviderId }),
    'POST /api/v1/conversations/:id/reply': () => ({ providerId: fx.modelProviderId }),
    'POST /api/v1/prompts/:id/variables': () => ({ label: 'latest' }),
    'PUT /api/v1/prompts/:id/labels': () => ({ label: 'staging', versionId: fx.versionId }),
    'PUT /api/v1/teams/:teamId/protected-labels': () => ({ labels: ['staging'] }),
    'POST /api/public/v2/prompts': () => ({ name: 'fuzz', prompt: 'x', labels: ['a'], tags: ['t'] }),
    'POST /api/public/prompts': () => ({ name: 'fuzz', prompt: 'x', isActive: true }),
    'PATCH /api/public/v2/prompts/:name/versions/:version': () => ({ newLabels: ['a'] }),
    'POST /api/public/mcp': () => ({ jsonrpc: '2.0', id: 1, method: 'prompts/list', params: {} }),
    'PATCH /api/v1/teams/:teamId': () => ({ name: 'Renamed' }),
    // Never the right confirmation: the matrix and the fuzzer must not delete the shared fixtures.
    'POST /api/v1/teams/:teamId/deletion': () => ({ confirmName: 'Not the team name' }),
    'POST /api/v1/me/deletion': () => ({ password: 'not the account password' }),
    'PATCH /api/v1/teams/:teamId/members/:userId': () => ({ role: 'member' }),
    'POST /api/v1/teams/:teamId/invitations': () => ({ email: 'fuzz-invitee@example.com', role: 'member' }),
    'POST /api/auth/*': () => ({ provider: 'google', callbackURL: '/auth/callback', disableRedirect: true }),
  }
  return samples[`${route.method} ${route.path}`]?.()
}

/** A parameter value that names one of the seeded objects, by the path it appears in. */
export function validParam(route: { path: string }, name: string, fx: ApiObjects): string {
  if (name === 'id') {
    if (route.path.startsWith('/api/v1/prompts')) return fx.promptId
    if (route.path.startsWith('/api/v1/conversations')) return fx.conversationId
    if (route.path.startsWith('/api/v1/messages')) return fx.messageId
    if (route.path.startsWith('/api/v1/mail-outbox')) return fx.mailId
    if (route.path.startsWith('/api/v1/api-keys')) return fx.apiKeyId
    if (route.path.startsWith('/api/v1/me/exports')) return fx.exportId
    if (route.path.startsWith('/api/v1/webhooks')) return fx.webhookId
    if (route.path.startsWith('/api/v1/model-providers')) return fx.modelProviderId
  }
  const byName: Record<string, string> = {
    teamId: fx.teamId,
    userId: fx.memberId,
    invitationId: fx.invitationId,
    token: fx.token,
    versionId: fx.versionId,
    attachmentId: fx.attachmentId,
    requestId: fx.planRequestId,
    label: 'staging',
    eventId: fx.labelEventId,
    deliveryId: fx.webhookDeliveryId,
    name: 'Fuzzed',
    version: '1',
    file: 'init.js',
  }
  const value = byName[name]
  if (!value) throw new Error(`no valid value for :${name} in ${route.path}`)
  return value
}
