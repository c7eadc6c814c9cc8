import { describe, expect, it } from 'vitest'
import { translate } from './messages/index.ts'
import { mayMoveLabel } from './permissions.ts'
import {
  chatBodyProblem,
  chatPromptSchema,
  labelSchema,
  labelsSchema,
  MAX_CONFIG_DEPTH,
  nameCandidate,
  nameFromTitle,
  nestsAtMost,
  parsePromptBody,
  placeholderClash,
  promptConfigSchema,
  promptNameProblem,
  promptNameSchema,
  sameConfig,
  serializePromptBody,
  variablesOf,
  versionLabels,
} from './prompt-names.ts'
import { configTextSchema } from './prompts.ts'

describe('prompt names (Langfuse rules)', () => {
  it.each([
    ['movie-critic', null],
    ['support/triage', null],
    ['a/b/c d', null],
    ['', 'prompts.nameRequired'],
    ['   ', 'prompts.nameRequired'],
    ['x'.repeat(256), 'prompts.nameTooLong'],
    ['x'.repeat(255), null],
    ['a|b', 'prompts.nameInvalid'],
    ['<b>bold</b>', 'prompts.nameInvalid'],
    ['/leading', 'prompts.nameInvalid'],
    ['trailing/', 'prompts.nameInvalid'],
    ['a//b', 'prompts.nameInvalid'],
    ['new', 'prompts.nameReserved'],
    ['metrics', 'prompts.nameReserved'],
    ['prompt-detail', 'prompts.nameReserved'],
    ['new/thing', null],
  ])('%j → %s', (name, problem) => {
    expect(promptNameProblem(name)).toBe(problem)
  })

  it('the schema trims and reports the problem as its message', () => {
    expect(promptNameSchema.parse('  support/triage ')).toBe('support/triage')
    expect(promptNameSchema.safeParse('a|b').error?.issues[0]?.message).toBe('prompts.nameInvalid')
  })

  it('is made from the title as a lowercase slug that needs no escaping in a URL', () => {
    expect(nameFromTitle('Meeting summary')).toBe('meeting-summary')
    expect(nameFromTitle('  Customer   support | triage ')).toBe('customer-support-triage')
    expect(nameFromTitle('A/B testing')).toBe('a-b-testing')
    expect(nameFromTitle('Größe & Café: Übersicht!')).toBe('grosse-cafe-ubersicht')
    expect(nameFromTitle('Łódź: œuvre, Ærø')).toBe('lodz-oeuvre-aero')
    expect(nameFromTitle('Встреча 2024')).toBe('встреча-2024')
    expect(nameFromTitle('new')).toBe('new-1')
    expect(nameFromTitle('NEW')).toBe('new-1')
    expect(nameFromTitle('x'.repeat(300))).toHaveLength(240)
    expect(nameFromTitle('<i></i>')).toBe('prompt')
    expect(nameFromTitle('!!!')).toBe('prompt')
    for (const title of ['a|b/c', 'new', '   x   ', 'y'.repeat(400), `${'z'.repeat(239)} tail`]) {
      const name = nameFromTitle(title)
      expect(promptNameProblem(name)).toBeNull()
      expect(name).toMatch(/^[\p{Ll}\p{Lo}\p{N}]+(-[\p{Ll}\p{Lo}\p{N}]+)*$/u)
    }
  })

  it('numbers the candidates when a name is taken', () => {
    expect([1, 2, 3].map((n) => nameCandidate('triage', n))).toEqual(['triage', 'triage-2', 'triage-3'])
  })
})

describe('labels', () => {
  it('accepts [a-z0-9_.-]{1,36} and refuses latest', () => {
    expect(labelSchema.parse('staging')).toBe('staging')
    expect(labelSchema.parse('v1.2_rc-3')).toBe('v1.2_rc-3')
    expect(labelSchema.safeParse('Prod').error?.issues[0]?.message).toBe('prompts.labelInvalid')
    expect(labelSchema.safeParse('x'.repeat(37)).success).toBe(false)
    expect(labelSchema.safeParse('').success).toBe(false)
    expect(labelSchema.safeParse('latest').error?.issues[0]?.message).toBe('prompts.labelLatest')
    expect(labelsSchema.parse(['a', 'b', 'a'])).toEqual(['a', 'b'])
  })

  it('shows production and latest first, then the stored labels sorted', () => {
    expect(versionLabels(['staging', 'beta'], { isProduction: true, isLatest: true })).toEqual([
      'production',
      'latest',
      'beta',
      'staging',
    ])
    expect(versionLabels([], { isProduction: false, isLatest: false })).toEqual([])
  })

  it('protected labels move only by team admins, never by API keys; latest never', () => {
    const isProtected = ['production']
    expect(mayMoveLabel('production', isProtected, { kind: 'user', isTeamAdmin: true })).toBe(true)
    expect(mayMoveLabel('production', isProtected, { kind: 'user', isTeamAdmin: false })).toBe(false)
    expect(mayMoveLabel('production', isProtected, { kind: 'apiKey' })).toBe(false)
    expect(mayMoveLabel('staging', isProtected, { kind: 'apiKey' })).toBe(true)
    expect(mayMoveLabel('latest', [], { kind: 'user', isTeamAdmin: true })).toBe(false)
  })
})

describe('chat prompts, variables and config', () => {
  const chat = [
    { role: 'system', content: 'You judge {{movie}}', type: 'chatmessage' },
    { type: 'placeholder', name: 'history' },
  ]

  it('keeps messages and placeholders, dropping the extra keys the SDK sends', () => {
    expect(chatPromptSchema.parse(chat)).toEqual([
      { role: 'system', content: 'You judge {{movie}}' },
      { type: 'placeholder', name: 'history' },
    ])
    expect(chatPromptSchema.safeParse([]).success).toBe(false)
    expect(chatPromptSchema.safeParse([{ type: 'placeholder', name: '1x' }]).success).toBe(false)
    expect(chatPromptSchema.safeParse([{ content: 'no role' }]).success).toBe(false)
  })

  it('refuses a name that is both a variable and a placeholder', () => {
    const clash = [
      { role: 'user', content: 'Hi {{history}}' },
      { type: 'placeholder' as const, name: 'history' },
    ]
    expect(placeholderClash(clash)).toBe('history')
    expect(chatPromptSchema.safeParse(clash).error?.issues[0]?.message).toBe('prompts.placeholderClash')
  })

  it('finds valid variable names in order of first use', () => {
    expect(variablesOf('{{ a }} {{b}} {{a}} {{1x}} {{ü_2}} {{}}')).toEqual(['a', 'b', 'ü_2'])
  })

  it('stores chat entries as JSON and reads them back; a plain text body reads as one user message', () => {
    const entries = chatPromptSchema.parse(chat)
    expect(parsePromptBody('chat', serializePromptBody('chat', entries))).toEqual(entries)
    expect(parsePromptBody('chat', 'just text')).toEqual([{ role: 'user', content: 'just text' }])
    expect(parsePromptBody('text', 'hello')).toBe('hello')
  })

  it('a config is any JSON object; null or absent is {}', () => {
    expect(promptConfigSchema.parse({ model: 'gpt-4o', temperature: 0.5 })).toEqual({
      model: 'gpt-4o',
      temperature: 0.5,
    })
    expect(promptConfigSchema.parse(null)).toEqual({})
    expect(promptConfigSchema.parse(undefined)).toEqual({})
    expect(promptConfigSchema.safeParse([1]).success).toBe(false)
  })

  it(`a config nests at most ${MAX_CONFIG_DEPTH} levels, arrays counting as objects, however deep the JSON`, () => {
    const nested = (levels: number, leaf: (inner: unknown) => unknown = (inner) => ({ a: inner })) => {
      let value: unknown = 1
      for (let level = 1; level < levels; level++) value = leaf(value)
      return { top: value }
    }
    expect(nestsAtMost(nested(MAX_CONFIG_DEPTH), MAX_CONFIG_DEPTH)).toBe(true)
    expect(promptConfigSchema.parse(nested(MAX_CONFIG_DEPTH))).toEqual(nested(MAX_CONFIG_DEPTH))
    for (const config of [
      nested(MAX_CONFIG_DEPTH + 1),
      nested(MAX_CONFIG_DEPTH + 1, (inner) => [inner]),
      nested(100_000),
    ]) {
      expect(promptConfigSchema.safeParse(config).error?.issues[0]?.message).toBe('prompts.configTooDeep')
    }
    const deepText = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    expect(configTextSchema.safeParse(deepText).error?.issues[0]?.message).toBe('prompts.configTooDeep')
    expect(translate('en', 'prompts.configTooDeep')).toContain(String(MAX_CONFIG_DEPTH))
    expect(translate('de', 'prompts.configTooDeep')).toContain(String(MAX_CONFIG_DEPTH))
  })
})

describe('chatBodyProblem', () => {
  it('accepts entries as JSON and names the broken rule otherwise', () => {
    expect(
      chatBodyProblem('[{"role":"user","content":"Hi"},{"type":"placeholder","name":"history"}]'),
    ).toBeNull()
    for (const body of ['Hi', '[]', 'null', '5', '[{"role":"user"}]', '{"role":"user","content":"x"}']) {
      expect(chatBodyProblem(body), body).toEqual({ key: 'prompts.chatMessageInvalid' })
    }
    expect(chatBodyProblem('[{"type":"placeholder","name":"1st"}]')).toEqual({
      key: 'prompts.placeholderInvalid',
    })
    expect(
      chatBodyProblem('[{"role":"user","content":"{{history}}"},{"type":"placeholder","name":"history"}]'),
    ).toEqual({ key: 'prompts.placeholderClash', params: { name: 'history' } })
  })
})

describe('sameConfig', () => {
  it('ignores key order at every depth and nothing else', () => {
    expect(sameConfig({ a: 1, b: { c: [1, { d: 2, e: 3 }] } }, { b: { c: [1, { e: 3, d: 2 }] }, a: 1 })).toBe(
      true,
    )
    expect(sameConfig({ a: 1 }, { a: '1' })).toBe(false)
    expect(sameConfig({ a: [1, 2] }, { a: [2, 1] })).toBe(false)
    expect(sameConfig({}, { a: null })).toBe(false)
  })
})
