import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import { apiKeyOperations } from '../../../domain/api/api-keys.ts'
import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CreatedApiKey } from '../../../domain/api-keys.ts'
import { COMPILE_RATE_LIMIT, type compilePromptInput } from '../../../domain/prompt-variables.ts'
import { rateLimits } from '../../db/schema/index.ts'
import { errorOf, TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { createPromptAs } from './test-fixtures.ts'

/**
 * What one compile may cost: values of undeclared variables are scalars, lists only where declared
 * (and short), a render that would grow too large or take too long is refused before it does, and
 * compiles are counted per key and per user.
 */
let testApp: TestApp
let owner: TestClient

beforeAll(async () => {
  testApp = await createTestApp()
  owner = new TestClient(testApp)
  await owner.signUp()
})
afterAll(() => testApp.close())

function compile(
  client: TestClient,
  promptId: string,
  input: z.input<typeof compilePromptInput>,
  headers?: Record<string, string>,
) {
  return client.call(promptOperations.compile, { params: { id: promptId }, body: input }, headers)
}

const items = (count: number) => Array.from({ length: count }, (_, index) => `item${index}`)
const bomb = '{{#a}}{{#a}}{{#a}}x{{/a}}{{/a}}{{/a}}'

describe('compile values and limits', () => {
  it('refuses a list for an undeclared variable, naming it (the section bomb as first reported)', async () => {
    const prompt = await createPromptAs(owner, { body: bomb })
    const res = await compile(owner, prompt.id, { values: { a: items(200) } })
    expect(res.status).toBe(400)
    expect(errorOf(res).code).toBe('validation')
    expect(errorOf(res).message).toBe(
      'The value of "a" must be text, a number or true/false (lists only for variables declared as lists)',
    )
    expect(errorOf(res).fields).toEqual({ 'values.a': errorOf(res).message })
  })

  it('refuses an object for an undeclared variable, in German too', async () => {
    const prompt = await createPromptAs(owner, { body: 'Hi {{person.name}}' })
    const res = await compile(owner.copy({ locale: 'de' }), prompt.id, {
      values: { person: { name: 'Ada' } },
    })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe(
      'Der Wert von „person“ muss Text, eine Zahl oder wahr/falsch sein (Listen nur für als Liste deklarierte Variablen)',
    )
  })

  it('takes a declared list up to its item limit and refuses a longer one', async () => {
    const prompt = await createPromptAs(owner, {
      body: '{{#steps}}- {{.}}\n{{/steps}}',
      variables: [{ name: 'steps', type: 'list' }],
    })
    const ok = await compile(owner, prompt.id, { values: { steps: ['mix', 'bake'] } })
    expect(ok.status).toBe(200)
    expect(ok.body.prompt).toBe('- mix\n- bake\n')
    const long = await compile(owner, prompt.id, { values: { steps: items(101) } })
    expect(long.status).toBe(400)
    expect(errorOf(long).message).toBe('The list "steps" has more than 100 items')
    expect(errorOf(long).fields).toEqual({ 'values.steps': errorOf(long).message })
  })

  it('answers the section bomb over a declared list with a 400 instead of rendering it', async () => {
    const prompt = await createPromptAs(owner, { body: bomb, variables: [{ name: 'a', type: 'list' }] })
    // 1,000,000 copies; one more level would be 100 million.
    const res = await compile(owner, prompt.id, { values: { a: items(100) } })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe(
      'The prompt repeats its sections too often to compile (nested {{#sections}} over lists multiply)',
    )
    const german = await compile(owner.copy({ locale: 'de' }), prompt.id, { values: { a: items(100) } })
    expect(errorOf(german).message).toMatch(/^Der Prompt wiederholt seine Abschnitte zu oft/)
  })

  it('refuses a compile whose output would pass the character limit', async () => {
    const prompt = await createPromptAs(owner, {
      body: '{{#copies}}{{text}}{{/copies}}',
      variables: [{ name: 'copies', type: 'list' }],
    })
    const res = await compile(owner, prompt.id, { values: { copies: items(100), text: 'z'.repeat(20_000) } })
    expect(res.status).toBe(400)
    expect(errorOf(res).message).toBe('The compiled prompt would be longer than 1,000,000 characters')
  })
})

describe('compile rate limit', () => {
  /** Sets a counter as if `count` compiles had been made in this window. */
  async function spend(key: string, count: number) {
    await testApp.database.db
      .insert(rateLimits)
      .values({ key, count, lastRequest: Date.now() })
      .onConflictDoUpdate({ target: rateLimits.key, set: { count, lastRequest: Date.now() } })
  }
  const scaled = (max: number) => max * testApp.config.rateLimitMultiplier

  it('answers 429 with Retry-After once a signed-in user has compiled too often', async () => {
    const user = new TestClient(testApp)
    const { id } = await user.signUp()
    const prompt = await createPromptAs(user, { body: 'Hi {{x}}' })
    await spend(`compile:user:${id}`, scaled(COMPILE_RATE_LIMIT.perUser) - 1)
    expect((await compile(user, prompt.id, { values: { x: 'last' } })).status).toBe(200)
    const refused = await compile(user, prompt.id, { values: { x: 'again' } })
    expect(refused.status).toBe(429)
    expect(errorOf(refused).code).toBe('rate_limited')
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    expect(errorOf(refused).message).toMatch(/^Too many compiles\. Please wait [\d,]+ seconds/)
  })

  it('counts each key on its own and every key with its user', async () => {
    const user = new TestClient(testApp)
    const { id } = await user.signUp()
    const prompt = await createPromptAs(user, { body: 'Hi {{x}}' })
    const newKey = async (name: string) =>
      (await user.call(apiKeyOperations.create, { body: { name, scope: 'read' } })).body
    const [first, second] = [await newKey('first'), await newKey('second')]
    const withKey = (key: CreatedApiKey, x: string) =>
      compile(
        new TestClient(testApp),
        prompt.id,
        { values: { x } },
        { Authorization: `Bearer ${key.secretKey}` },
      )

    await spend(`compile:key:${first.id}`, scaled(COMPILE_RATE_LIMIT.perKey) - 1)
    expect((await withKey(first, 'last')).status).toBe(200)
    const refused = await withKey(first, 'again')
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0)
    // The other key and the user's session still have room, until the user's own limit is spent.
    expect((await withKey(second, 'other key')).status).toBe(200)
    expect((await compile(user, prompt.id, { values: { x: 'session' } })).status).toBe(200)
    await spend(`compile:user:${id}`, scaled(COMPILE_RATE_LIMIT.perUser))
    expect((await withKey(second, 'over')).status).toBe(429)
    expect((await compile(user, prompt.id, { values: { x: 'over' } })).status).toBe(429)
  })
})
