import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import pg from 'pg'
import { CONVERSATION_SNAPSHOT_SIZE } from '../../domain/constants.ts'
import { type Database, openDatabase } from '../db/client.ts'
import { queryRows } from '../db/rows.ts'
import { httpTarget, TestClient, uniqueEmail } from './client.ts'
import { TestMailbox } from './mailbox.ts'
import { type ServerProcess, startServerProcess } from './server-process.ts'
import { WebhookReceiver } from './webhook-receiver.ts'

/** The database a crashed server runs on, and a way in for the checks while no server runs. */
export interface CrashDatabase {
  label: string
  /** DATA_DIR or DATABASE_URL for the server process. */
  env: Record<string, string>
  open(): Promise<Database>
  cleanup(): Promise<void>
}

/** The embedded database in a temporary DATA_DIR. */
export function embeddedCrashDatabase(): CrashDatabase {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-crash-'))
  return {
    label: 'PGlite',
    env: { DATA_DIR: dataDir },
    open: () => openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'db') }),
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  }
}

/** A schema of its own in the PostgreSQL database at `url` (dropped by `cleanup`). */
export async function postgresCrashDatabase(url: string): Promise<CrashDatabase> {
  const schema = `crash_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    await client.query(statement).finally(() => client.end())
  }
  await admin(`CREATE SCHEMA ${schema}`)
  const serverUrl = new URL(url)
  serverUrl.searchParams.set('options', `-c search_path=${schema},public`)
  return {
    label: 'PostgreSQL',
    env: { DATABASE_URL: serverUrl.toString() },
    open: () => openDatabase({ kind: 'postgres', url, searchPath: schema }),
    cleanup: () => admin(`DROP SCHEMA ${schema} CASCADE`),
  }
}

/** Every write the server acknowledged (answered 2xx) before it was killed. */
interface Acknowledged {
  prompts: { id: string; versionId: string }[]
  versions: { promptId: string; versionId: string; body: string }[]
  messages: { conversationId: string; id: string; text: string }[]
  invitations: string[]
}

export interface CrashReport {
  database: string
  acknowledged: { prompts: number; versions: number; messages: number; invitations: number }
  /** Requests that were in flight at the kill (no answer; each may or may not have committed). */
  inFlightAtKill: number
  /** Queued rows at the restart: waiting, and claimed by the killed process (leased). */
  mailsPending: number
  mailsLeased: number
  deliveriesPending: number
  deliveriesLeased: number
  /** Once everything went out: mails and webhook events, and those received twice (at least once). */
  mailsSent: number
  deliveriesSucceeded: number
  duplicatesReceived: number
  /** What broke an invariant; empty when the data survived intact. */
  problems: string[]
}

const step = (text: string) => {
  if (process.env.CRASH_DEBUG) process.stdout.write(`[crash] ${new Date().toISOString()} ${text}\n`)
}

async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const WEBHOOK_EVENTS = ['prompt.created', 'prompt.version.created', 'conversation.message.created']

/**
 * The kill -9 reliability check: the real server process under a mixed write load from `workers` concurrent
 * clients (prompt creates, version saves, conversation messages, team invitations, each of which
 * also queues a mail or webhook deliveries), killed with SIGKILL once `writesBeforeKill` writes
 * were acknowledged, then restarted on the same data and checked:
 *
 * - the restarted server serves every acknowledged prompt and version;
 * - in the database: every acknowledged write is there; no prompt without a version or whose
 *   current version is missing, version numbers 1..n without a gap; each conversation's snapshot
 *   equals its last 10 messages; each acknowledged invitation has exactly one mail in the outbox
 *   and each acknowledged prompt or message exactly one webhook delivery; a row marked sent was
 *   received;
 * - the queues are not lost: after the killed process's leases are expired (they would lapse on
 *   their own after 1-2 minutes), one more start sends every queued mail and delivery, each
 *   received at least once and twice at most for the rows the killed process had claimed.
 */
export async function crashUnderLoad(
  database: CrashDatabase,
  options: { workers: number; writesBeforeKill: number },
): Promise<CrashReport> {
  const mailbox = await TestMailbox.start(0, { acceptAfterMs: 20 })
  const receiver = await WebhookReceiver.start()
  receiver.answer = () => ({ status: 200, after: new Promise((resolve) => setTimeout(resolve, 20)) })
  const env = {
    ...database.env,
    PLANS: 'off',
    WEBHOOK_ALLOW_PRIVATE: '1',
    SMTP_URL: mailbox.url,
    RATE_LIMIT_MULTIPLIER: '1000',
    LOG_LEVEL: 'warn',
  }
  const problems: string[] = []
  const servers: ServerProcess[] = []
  const start = async () => {
    const server = await startServerProcess(env)
    servers.push(server)
    return server
  }
  try {
    step('starting')
    const server = await start()
    step('started')
    const owner = new TestClient(httpTarget(server.base), { origin: server.base })
    const email = uniqueEmail('crash')
    await owner.signUp(email)
    const team = await owner.post<{ id: string }>('/api/v1/teams', { name: 'Crash' })
    const hook = await owner.post('/api/v1/webhooks', {
      url: `${receiver.url}/hook`,
      events: WEBHOOK_EVENTS,
      teamId: team.body.id,
    })
    if (hook.status !== 201) throw new Error(`webhook: ${hook.status} ${JSON.stringify(hook.body)}`)

    const acked: Acknowledged = { prompts: [], versions: [], messages: [], invitations: [] }
    const count = () =>
      acked.prompts.length + acked.versions.length + acked.messages.length + acked.invitations.length
    let inFlight = 0
    let killed = false
    const inTeam = { visibility: 'team', teamId: team.body.id }

    const worker = async (w: number) => {
      const prompts: string[] = []
      let conversationId: string | undefined
      for (let i = 0; !killed; i++) {
        inFlight += 1
        try {
          if (i === 0 || i % 6 === 1) {
            const body = `Worker ${w} prompt ${i}`
            const res = await owner.post<{ id: string; currentVersionId: string }>('/api/v1/prompts', {
              title: `W${w} ${i}`,
              body,
              ...inTeam,
            })
            if (res.status !== 201)
              throw new Error(`create prompt: ${res.status} ${JSON.stringify(res.body)}`)
            acked.prompts.push({ id: res.body.id, versionId: res.body.currentVersionId })
            prompts.push(res.body.id)
          } else if (i % 6 === 2 || i % 6 === 3) {
            const promptId = prompts[i % prompts.length]!
            const body = `Worker ${w} save ${i}`
            const res = await owner.patch<{ currentVersionId: string }>(`/api/v1/prompts/${promptId}`, {
              body,
            })
            if (res.status !== 200) throw new Error(`save: ${res.status} ${JSON.stringify(res.body)}`)
            acked.versions.push({ promptId, versionId: res.body.currentVersionId, body })
          } else if (i % 6 === 4 || i % 6 === 5) {
            if (!conversationId) {
              const res = await owner.post<{ id: string }>('/api/v1/conversations', {
                title: `W${w}`,
                teamId: team.body.id,
              })
              if (res.status !== 201) throw new Error(`conversation: ${res.status}`)
              conversationId = res.body.id
            }
            const text = `Worker ${w} message ${i}`
            const res = await owner.post<{ id: string }>(`/api/v1/conversations/${conversationId}/messages`, {
              content: { text },
            })
            if (res.status !== 201) throw new Error(`message: ${res.status} ${JSON.stringify(res.body)}`)
            acked.messages.push({ conversationId, id: res.body.id, text })
          } else {
            const invitee = uniqueEmail(`w${w}-invite`)
            const res = await owner.post(`/api/v1/teams/${team.body.id}/invitations`, {
              email: invitee,
              role: 'member',
            })
            if (res.status !== 201) throw new Error(`invite: ${res.status} ${JSON.stringify(res.body)}`)
            acked.invitations.push(invitee)
          }
        } catch (error) {
          // After the kill a request fails without an answer: not acknowledged, so not expected.
          if (!killed) problems.push(`before the kill: ${(error as Error).message}${serverErrors(server)}`)
          return
        } finally {
          inFlight -= 1
        }
      }
    }
    const load = Array.from({ length: options.workers }, (_, w) => worker(w + 1))
    await until(
      () => count() >= options.writesBeforeKill || problems.length > 0,
      'the writes before the kill',
      Math.max(60_000, options.writesBeforeKill * 500),
    )
    step(`killing at ${count()} writes`)
    const inFlightAtKill = inFlight
    killed = true
    await server.kill()
    await Promise.all(load)

    // The restart recovers the data by itself and serves what was acknowledged.
    const restarted = await start()
    step('restarted')
    const reader = new TestClient(httpTarget(restarted.base), { origin: restarted.base })
    if ((await reader.signIn(email)).status !== 200) problems.push('sign-in after the restart failed')
    for (const version of [
      ...acked.prompts.map((p) => ({ promptId: p.id, versionId: p.versionId })),
      ...acked.versions,
    ]) {
      const res = await reader.get(`/api/v1/prompts/${version.promptId}/versions/${version.versionId}`)
      if (res.status !== 200) problems.push(`version ${version.versionId}: ${res.status} after the restart`)
    }
    const fresh = await reader.post('/api/v1/prompts', { title: 'After the crash', body: 'Body' })
    if (fresh.status !== 201) problems.push(`a write after the restart: ${fresh.status}`)
    const exit = await restarted.stop()
    if (exit !== 0) problems.push(`the restarted server exited with ${exit}`)

    step('checking')
    const queued = await checkIntegrity(database, acked, mailbox, receiver, problems)
    step(`checked: ${problems.length} problems`)

    // The killed process's claims would lapse after their lease; expire them instead of waiting.
    const again = await start()
    const expected = queued.expectedEvents
    await until(
      () =>
        queued.mailsTo.every((to) => mailbox.to(to).length > 0) &&
        expected.every((id) => receivedEventIds(receiver).has(id)),
      'every queued mail and webhook delivery',
    )
    step('delivered')
    await again.stop()
    const done = await database.open()
    try {
      const [mails] = await queryRows<{ sent: number; other: number }>(
        done.db,
        sql`SELECT count(*) FILTER (WHERE status = 'sent')::int AS sent, count(*) FILTER (WHERE status <> 'sent')::int AS other
            FROM mail_outbox WHERE kind = 'team_invitation'`,
      )
      const [deliveries] = await queryRows<{ succeeded: number; other: number }>(
        done.db,
        sql`SELECT count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
              count(*) FILTER (WHERE status <> 'succeeded')::int AS other FROM webhook_deliveries`,
      )
      if (mails!.other > 0) problems.push(`${mails!.other} invitation mails not sent in the end`)
      if (deliveries!.other > 0)
        problems.push(`${deliveries!.other} webhook deliveries not succeeded in the end`)
      const mailCounts = acked.invitations.map((to) => mailbox.to(to).length)
      const eventCounts = new Map<string, number>()
      for (const id of receivedEvents(receiver)) eventCounts.set(id, (eventCounts.get(id) ?? 0) + 1)
      const duplicates =
        mailCounts.reduce((sum, n) => sum + n - 1, 0) +
        [...eventCounts.values()].reduce((sum, n) => sum + n - 1, 0)
      if (duplicates > queued.mailsLeased + queued.deliveriesLeased) {
        problems.push(
          `${duplicates} mails or events received twice, more than the ${queued.mailsLeased + queued.deliveriesLeased} in flight at the kill`,
        )
      }
      return {
        database: database.label,
        acknowledged: {
          prompts: acked.prompts.length,
          versions: acked.versions.length,
          messages: acked.messages.length,
          invitations: acked.invitations.length,
        },
        inFlightAtKill,
        mailsPending: queued.mailsPending,
        mailsLeased: queued.mailsLeased,
        deliveriesPending: queued.deliveriesPending,
        deliveriesLeased: queued.deliveriesLeased,
        mailsSent: mails!.sent,
        deliveriesSucceeded: deliveries!.succeeded,
        duplicatesReceived: duplicates,
        problems,
      }
    } finally {
      await done.close()
    }
  } finally {
    for (const server of servers) await server.kill()
    await mailbox.close()
    await receiver.close()
  }
}

/** The error lines the server logged so far, to say why a request failed. */
function serverErrors(server: ServerProcess): string {
  const lines = server
    .output()
    .split('\n')
    .filter((line) => line.includes('"level":"error"'))
  return lines.length > 0 ? `\nserver errors:\n${lines.join('\n')}` : ''
}

function receivedEvents(receiver: WebhookReceiver): string[] {
  return receiver.received.map((request) => (JSON.parse(request.body) as { id: string }).id)
}

function receivedEventIds(receiver: WebhookReceiver): Set<string> {
  return new Set(receivedEvents(receiver))
}

/**
 * The checks on the data as the crash left it (after one clean restart), straight in the database;
 * pushes what is wrong to `problems`. Then expires the killed process's claims on queued rows.
 */
async function checkIntegrity(
  database: CrashDatabase,
  acked: Acknowledged,
  mailbox: TestMailbox,
  receiver: WebhookReceiver,
  problems: string[],
) {
  const handle = await database.open()
  const db = handle.db
  try {
    const ids = (list: { id: string }[]) =>
      sql`ARRAY[${sql.join(
        list.map((item) => sql`${item.id}`),
        sql`, `,
      )}]::uuid[]`
    const promptRows = await queryRows<{ id: string }>(
      db,
      sql`SELECT id FROM prompts WHERE id = ANY (${ids(acked.prompts)})`,
    )
    if (promptRows.length !== acked.prompts.length) {
      problems.push(`${acked.prompts.length - promptRows.length} acknowledged prompts are missing`)
    }
    const versionIds = [
      ...acked.prompts.map((p) => ({ id: p.versionId })),
      ...acked.versions.map((v) => ({ id: v.versionId })),
    ]
    const versionRows = await queryRows<{ id: string; body: string }>(
      db,
      sql`SELECT id, body FROM prompt_versions WHERE id = ANY (${ids(versionIds)})`,
    )
    const bodies = new Map(versionRows.map((row) => [row.id, row.body]))
    if (versionRows.length !== versionIds.length) {
      problems.push(`${versionIds.length - versionRows.length} acknowledged versions are missing`)
    }
    for (const version of acked.versions) {
      if (bodies.has(version.versionId) && bodies.get(version.versionId) !== version.body) {
        problems.push(`version ${version.versionId} has another body`)
      }
    }
    const [broken] = await queryRows<{ without_version: number; bad_current: number; gaps: number }>(
      db,
      sql`SELECT
            (SELECT count(*) FROM prompts p WHERE NOT EXISTS (SELECT 1 FROM prompt_versions v WHERE v.prompt_id = p.id))::int AS without_version,
            (SELECT count(*) FROM prompts p WHERE p.current_version_id IS NULL OR NOT EXISTS (
               SELECT 1 FROM prompt_versions v WHERE v.id = p.current_version_id AND v.prompt_id = p.id))::int AS bad_current,
            (SELECT count(*) FROM (SELECT prompt_id FROM prompt_versions GROUP BY prompt_id
               HAVING max(version_number) <> count(*) OR min(version_number) <> 1) g)::int AS gaps`,
    )
    if (broken!.without_version > 0) problems.push(`${broken!.without_version} prompts without a version`)
    if (broken!.bad_current > 0) problems.push(`${broken!.bad_current} prompts without their current version`)
    if (broken!.gaps > 0) problems.push(`${broken!.gaps} prompts with a gap in their version numbers`)

    const messageRows = await queryRows<{ id: string; text: string }>(
      db,
      sql`SELECT id, content ->> 'text' AS text FROM conversation_messages WHERE id = ANY (${ids(acked.messages)})`,
    )
    const texts = new Map(messageRows.map((row) => [row.id, row.text]))
    for (const message of acked.messages) {
      if (texts.get(message.id) !== message.text) problems.push(`message ${message.id} is missing or changed`)
    }
    const conversations = await queryRows<{ id: string; content: unknown }>(
      db,
      sql`SELECT id, content FROM conversations`,
    )
    for (const conversation of conversations) {
      const last = await queryRows<{ role: string; content: string }>(
        db,
        sql`SELECT role, content ->> 'text' AS content FROM (
              SELECT role, content, created_at, id FROM conversation_messages WHERE conversation_id = ${conversation.id}
              ORDER BY created_at DESC, id DESC LIMIT ${CONVERSATION_SNAPSHOT_SIZE}) m ORDER BY created_at, id`,
      )
      const expected = last.length === 0 ? {} : { messages: last }
      if (JSON.stringify(conversation.content) !== JSON.stringify(expected)) {
        problems.push(
          `conversation ${conversation.id}: the snapshot is not its last ${CONVERSATION_SNAPSHOT_SIZE} messages`,
        )
      }
    }

    // The queues: one row per acknowledged cause; a row marked done was received.
    const mails = await queryRows<{ to_address: string; status: string; attempts: number; leased: boolean }>(
      db,
      sql`SELECT to_address, status, attempts, (status = 'pending' AND attempts > 0 AND next_attempt_at > now()) AS leased
          FROM mail_outbox WHERE kind = 'team_invitation'`,
    )
    for (const to of acked.invitations) {
      const rows = mails.filter((mail) => mail.to_address === to)
      if (rows.length !== 1) problems.push(`invitation to ${to}: ${rows.length} mails in the outbox`)
      if (rows.some((mail) => mail.status === 'sent') && mailbox.to(to).length === 0) {
        problems.push(`invitation to ${to} is marked sent but was not received`)
      }
    }
    for (const mail of mails) {
      if (!['pending', 'sent'].includes(mail.status))
        problems.push(`a mail to ${mail.to_address} is ${mail.status}`)
    }
    const deliveries = await queryRows<{
      event_id: string
      event_type: string
      payload: string
      status: string
      leased: boolean
    }>(
      db,
      sql`SELECT event_id, event_type, payload, status,
            (status = 'pending' AND attempts > 0 AND next_attempt_at > now()) AS leased FROM webhook_deliveries`,
    )
    const causes = [
      ...acked.prompts.map((p) => ({ type: 'prompt.created', id: p.versionId })),
      ...acked.versions.map((v) => ({ type: 'prompt.version.created', id: v.versionId })),
      ...acked.messages.map((m) => ({ type: 'conversation.message.created', id: m.id })),
    ]
    for (const cause of causes) {
      const rows = deliveries.filter(
        (d) => d.event_type === cause.type && d.payload.includes(`"id":"${cause.id}"`),
      )
      if (rows.length !== 1) problems.push(`${cause.type} of ${cause.id}: ${rows.length} webhook deliveries`)
    }
    const received = receivedEventIds(receiver)
    for (const delivery of deliveries) {
      if (delivery.status === 'succeeded' && !received.has(delivery.event_id)) {
        problems.push(`delivery of ${delivery.event_id} is marked succeeded but was not received`)
      }
      if (!['pending', 'succeeded'].includes(delivery.status))
        problems.push(`a delivery is ${delivery.status}`)
    }

    const figures = {
      mailsTo: mails.map((m) => m.to_address),
      mailsPending: mails.filter((m) => m.status === 'pending').length,
      mailsLeased: mails.filter((m) => m.leased).length,
      deliveriesPending: deliveries.filter((d) => d.status === 'pending').length,
      deliveriesLeased: deliveries.filter((d) => d.leased).length,
      expectedEvents: deliveries.map((d) => d.event_id),
    }
    await db.execute(sql`UPDATE mail_outbox SET next_attempt_at = now() WHERE status = 'pending'`)
    await db.execute(sql`UPDATE webhook_deliveries SET next_attempt_at = now() WHERE status = 'pending'`)
    return figures
  } finally {
    await handle.close()
  }
}
