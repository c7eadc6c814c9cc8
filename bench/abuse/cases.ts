import type { WebhookReceiver } from '../../src/server/testing/webhook-receiver.ts'
import { type Answer, type Caller, send } from './http.ts'

/** What every case may use: the server's address, the callers made at setup, and a shared notebook. */
export interface Context {
  base: () => string
  timeoutMs: number
  /** The owner's session, and their personal keys (read-only as Bearer, both as Basic for /api/public). */
  owner: Caller
  readBearer: Caller
  readBasic: Caller
  writeBasic: Caller
  /** Two other accounts (two spaces), each with a webhook endpoint on the local receiver. */
  noisy: { caller: Caller; endpointId: string }
  quiet: { caller: Caller; endpointId: string }
  receiver: WebhookReceiver
  webhookDelayMs: number
  /** Ids that later cases need (a prompt saved by an earlier one). */
  saved: Map<string, { id: string; versionId: string }>
}

export interface Outcome {
  answers: Answer[]
  /** Failures beyond the generic ones (5xx, no answer, an unbounded answer). */
  problems: string[]
  /** What the reader needs beside the statuses (a refused save that made the next case moot). */
  note?: string
}

export interface Case {
  name: string
  run(context: Context): Promise<Outcome>
}

const MiB = 1024 * 1024

const call = (context: Context, method: string, path: string, caller: Caller, body?: unknown) =>
  send(
    context.base(),
    method,
    path,
    caller,
    typeof body === 'string' || body === undefined ? body : JSON.stringify(body),
    context.timeoutMs,
  )

/** Creates a prompt in the owner's space; on 201 its id and version go to the notebook under `name`. */
async function savePrompt(context: Context, name: string, body: string): Promise<Answer> {
  const answer = await call(context, 'POST', '/api/v1/prompts', context.owner, { title: name, name, body })
  if (answer.status === 201) {
    const created = JSON.parse(answer.head) as { id: string; currentVersion: { id: string } }
    context.saved.set(name, { id: created.id, versionId: created.currentVersion.id })
  }
  return answer
}

const tag = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`

/** The three reads that expand references: the Langfuse fetch, compile and /resolved. */
function expansionCases(label: string, name: string, langfuseQuery: string, compileBody: object): Case[] {
  const needs = (context: Context, run: (prompt: { id: string; versionId: string }) => Promise<Answer>) => {
    const prompt = context.saved.get(name)
    if (!prompt) return Promise.resolve({ answers: [], problems: [], note: `${name} was not saved` })
    return run(prompt).then((answer) => ({ answers: [answer], problems: [] }))
  }
  return [
    {
      name: `${label}: Langfuse fetch ${name}?${langfuseQuery} (key)`,
      run: async (context) => ({
        answers: [
          await call(context, 'GET', `/api/public/v2/prompts/${name}?${langfuseQuery}`, context.readBasic),
        ],
        problems: [],
      }),
    },
    {
      name: `${label}: compile ${name} (session)`,
      run: (context) =>
        needs(context, ({ id }) =>
          call(context, 'POST', `/api/v1/prompts/${id}/compile`, context.owner, compileBody),
        ),
    },
    {
      name: `${label}: /resolved of ${name} v1 (session)`,
      run: (context) =>
        needs(context, ({ id, versionId }) =>
          call(context, 'GET', `/api/v1/prompts/${id}/versions/${versionId}/resolved`, context.owner),
        ),
    },
  ]
}

/**
 * The reference bomb: lolc = 10,000 × "L", lolb = 1,000 × lolc's tag, lola = 20 × lolb's tag:
 * 90 KB stored, 200 MB expanded. A bounded server refuses lolb or lola at save (4xx); whatever it
 * answers is recorded, and the reads of lola must then be a 4xx (or a 404 for a refused lola).
 */
const referenceBomb: Case[] = [
  {
    name: 'reference bomb: save lolc, lolb, lola',
    run: async (context) => {
      const answers = [
        await savePrompt(context, 'lolc', 'L'.repeat(10_000)),
        await savePrompt(context, 'lolb', tag('lolc', 'version=1').repeat(1_000)),
        await savePrompt(context, 'lola', tag('lolb', 'version=1').repeat(20)),
      ]
      return { answers, problems: [] }
    },
  },
  ...expansionCases('reference bomb', 'lola', 'version=1', {}),
]

/**
 * The same size reached through saves that are each small: gc (1 character), gb = 40 × gc's
 * `latest`, ga = 40 × gb's `latest` (1,600 characters expanded), then gc grows to 45,000
 * characters in a new version (72 MB expanded). The reads of ga must then answer a 4xx.
 */
const GROWN_CHARS = 45_000
const growingChain: Case[] = [
  {
    name: 'growing chain: save gc, gb (40 × gc@latest), ga (40 × gb@latest)',
    run: async (context) => {
      const answers = [
        await savePrompt(context, 'gc', 'L'),
        await savePrompt(context, 'gb', tag('gc', 'label=latest').repeat(40)),
        await savePrompt(context, 'ga', tag('gb', 'label=latest').repeat(40)),
      ]
      const problems = answers.some((a) => a.status !== 201)
        ? ['the small chain was refused: nothing to grow (each body is 1,640 characters or less)']
        : []
      return { answers, problems }
    },
  },
  {
    name: `growing chain: gc grows to ${GROWN_CHARS.toLocaleString('en')} characters (new version)`,
    run: async (context) => {
      const gc = context.saved.get('gc')
      if (!gc) return { answers: [], problems: [], note: 'gc was not saved' }
      const answers = [
        await call(context, 'PATCH', `/api/v1/prompts/${gc.id}`, context.owner, {
          body: 'L'.repeat(GROWN_CHARS),
        }),
      ]
      return { answers, problems: [] }
    },
  },
  ...expansionCases('growing chain', 'ga', 'label=latest', { label: 'latest' }),
]

/**
 * The section bomb: four nested sections over one undeclared list of 1,000 items is 10^12
 * renders. Read-only keys may compile, so it goes with one and with a session.
 */
const SECTIONS = '{{#a}}{{#a}}{{#a}}{{#a}}x{{/a}}{{/a}}{{/a}}{{/a}}'
const sectionValues = { values: { a: Array.from({ length: 1_000 }, (_, i) => i) } }
const sectionBomb = (who: 'key' | 'session'): Case => ({
  name: `section bomb: compile 4 sections × 1,000 items (${who === 'key' ? 'read-only key' : 'session'})`,
  run: async (context) => {
    const answers: Answer[] = []
    if (!context.saved.has('sections')) answers.push(await savePrompt(context, 'sections', SECTIONS))
    const prompt = context.saved.get('sections')
    if (!prompt) return { answers, problems: [], note: 'the sections prompt was not saved' }
    const caller = who === 'key' ? context.readBearer : context.owner
    answers.push(await call(context, 'POST', `/api/v1/prompts/${prompt.id}/compile`, caller, sectionValues))
    return { answers, problems: [] }
  },
})

/** `{"a":{"a":…{"a":1}…}}`, `depth` objects deep, written out (no recursion on this side). */
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
const DEPTH = 5_000

const bodies: Case[] = [
  {
    name: `config ${DEPTH.toLocaleString('en')} levels deep: create (app)`,
    run: async (context) => ({
      answers: [
        await call(
          context,
          'POST',
          '/api/v1/prompts',
          context.owner,
          `{"title":"deep config","body":"x","config":${deepObject(DEPTH)}}`,
        ),
      ],
      problems: [],
    }),
  },
  {
    name: `config ${DEPTH.toLocaleString('en')} levels deep: create (Langfuse, key)`,
    run: async (context) => ({
      answers: [
        await call(
          context,
          'POST',
          '/api/public/v2/prompts',
          context.writeBasic,
          `{"name":"deep-config","type":"text","prompt":"x","config":${deepObject(DEPTH)}}`,
        ),
      ],
      problems: [],
    }),
  },
  {
    name: '2 MiB JSON body: create (app)',
    run: async (context) => ({
      answers: [
        await call(context, 'POST', '/api/v1/prompts', context.owner, {
          title: 'big',
          body: 'x'.repeat(2 * MiB),
        }),
      ],
      problems: [],
    }),
  },
  {
    name: '2 MiB JSON body: create (Langfuse, key)',
    run: async (context) => ({
      answers: [
        await call(context, 'POST', '/api/public/v2/prompts', context.writeBasic, {
          name: 'big',
          prompt: 'x'.repeat(2 * MiB),
        }),
      ],
      problems: [],
    }),
  },
  {
    name: 'prompt body of 60,000 characters: create (app)',
    run: async (context) => ({
      answers: [
        await call(context, 'POST', '/api/v1/prompts', context.owner, {
          title: 'long',
          body: 'x'.repeat(60_000),
        }),
      ],
      problems: [],
    }),
  },
  {
    name: '10,000 tags: create (app)',
    run: async (context) => ({
      answers: [
        await call(context, 'POST', '/api/v1/prompts', context.owner, {
          title: 'tags',
          body: 'x',
          tags: Array.from({ length: 10_000 }, (_, i) => `tag-${i}`),
        }),
      ],
      problems: [],
    }),
  },
]

/** Runs `count` calls, `parallel` at a time. */
async function inParallel(
  count: number,
  parallel: number,
  one: (i: number) => Promise<Answer>,
): Promise<Answer[]> {
  const answers: Answer[] = []
  let next = 0
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) answers.push(await one(next++))
    }),
  )
  return answers
}

/**
 * The noisy webhook tenant: one space saves NOISY_SAVES versions, sends NOISY_TESTS test events and
 * NOISY_REDELIVERIES redeliveries to an endpoint that holds each answer NOISY_HOLD_MS (its owner
 * may, up to the 10 s delivery timeout), 4 requests at a time; then the quiet space creates one
 * prompt. Its delivery must arrive within the threshold.
 */
const NOISY_SAVES = 40
const NOISY_TESTS = 150
const NOISY_REDELIVERIES = 150
const NOISY_HOLD_MS = 8_000
const noisyTenant: Case = {
  name: `noisy webhook tenant: ${NOISY_SAVES} saves, ${NOISY_TESTS} test events, ${NOISY_REDELIVERIES} redeliveries; quiet space saves 1`,
  run: async (context) => {
    const { receiver, noisy, quiet } = context
    let release = () => {}
    const released = new Promise<void>((resolve) => {
      release = resolve
    })
    let quietArrived = 0
    receiver.answer = (request) => {
      if (request.path === '/quiet' && quietArrived === 0) quietArrived = performance.now()
      return request.path === '/noisy'
        ? {
            status: 200,
            after: Promise.race([released, new Promise((resolve) => setTimeout(resolve, NOISY_HOLD_MS))]),
          }
        : { status: 200 }
    }
    const answers: Answer[] = []
    try {
      const created = await call(context, 'POST', '/api/v1/prompts', noisy.caller, {
        title: 'noisy',
        body: 'v0',
      })
      answers.push(created)
      const promptId = created.status === 201 ? (JSON.parse(created.head) as { id: string }).id : null
      if (promptId) {
        answers.push(
          ...(await inParallel(NOISY_SAVES, 4, (i) =>
            call(context, 'PATCH', `/api/v1/prompts/${promptId}`, noisy.caller, { body: `v${i + 1}` }),
          )),
        )
      }
      const tests = await inParallel(NOISY_TESTS, 4, () =>
        call(context, 'POST', `/api/v1/webhooks/${noisy.endpointId}/test`, noisy.caller, {}),
      )
      answers.push(...tests)
      const deliveryIds = tests
        .filter((a) => a.status < 300)
        .map((a) => (JSON.parse(a.head) as { id: string }).id)
      if (deliveryIds.length > 0) {
        answers.push(
          ...(await inParallel(NOISY_REDELIVERIES, 4, (i) =>
            call(
              context,
              'POST',
              `/api/v1/webhooks/${noisy.endpointId}/deliveries/${deliveryIds[i % deliveryIds.length]}/redeliver`,
              noisy.caller,
              {},
            ),
          )),
        )
      }
      const before = receiver.on('/quiet').length
      // From the moment the save is sent: its own time counts in the delay the quiet space sees.
      const savedAt = performance.now()
      const quietSave = await call(context, 'POST', '/api/v1/prompts', quiet.caller, {
        title: 'quiet',
        body: 'x',
      })
      answers.push(quietSave)
      const waitMs = Math.max(context.webhookDelayMs * 4, 30_000)
      const arrived = await Promise.race([
        receiver.waitFor(before + 1, '/quiet').then(() => true),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), waitMs)),
      ])
      const problems: string[] = []
      const delay = arrived ? quietArrived - savedAt : null
      if (quietSave.status !== 201) problems.push(`the quiet space's save answered ${quietSave.status}`)
      else if (delay === null) problems.push(`the quiet delivery did not arrive within ${waitMs / 1000} s`)
      else if (delay > context.webhookDelayMs)
        problems.push(
          `the quiet delivery took ${(delay / 1000).toFixed(1)} s (limit ${context.webhookDelayMs / 1000} s)`,
        )
      return {
        answers,
        problems,
        note: `quiet delivery after ${delay === null ? `> ${waitMs / 1000} s` : `${(delay / 1000).toFixed(2)} s`}`,
      }
    } finally {
      release()
      receiver.answer = () => ({ status: 200 })
    }
  },
}

/** Nothing hostile: the machine's own health latency, for comparison with the cases after it. */
export const baselineName = 'baseline: nothing sent for 1 s'
const baseline: Case = {
  name: baselineName,
  run: async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    return { answers: [], problems: [] }
  },
}

export const cases: Case[] = [
  baseline,
  ...bodies,
  ...referenceBomb,
  ...growingChain,
  sectionBomb('key'),
  sectionBomb('session'),
  noisyTenant,
]
