import { describe, expect, it } from 'vitest'
import { RENDER_LIMITS } from './bounded-render.ts'
import { variablesOf } from './prompt-names.ts'
import {
  compilePrompt,
  diffableText,
  lintVariables,
  resolveValues,
  singleBraceNamesOf,
  VARIABLE_LIMITS,
  type VariableDeclarationInput,
  variablesOfBody,
  variablesSchema,
} from './prompt-variables.ts'

const declare = (...items: VariableDeclarationInput[]) => variablesSchema.parse(items)

describe('variablesOf with Mustache tags', () => {
  it('finds plain, raw and section names once each, in order of first use', () => {
    expect(variablesOf('{{a}} {{{b}}} {{&c}} {{#d}}x{{/d}} {{^e}}y{{/e}} {{a}}')).toEqual([
      'a',
      'b',
      'c',
      'd',
      'e',
    ])
  })
  it('ignores comments, partials and invalid names', () => {
    expect(variablesOf('{{! note }} {{> part}} {{1x}} {{ a b }}')).toEqual([])
  })
})

describe('compilePrompt', () => {
  it('renders like the Langfuse SDK: no HTML escaping, a missing value is empty', () => {
    const result = compilePrompt('text', 'Hi {{name}} <{{tag}}> [{{missing}}]', [], {
      name: 'A & B',
      tag: '<b>',
    })
    expect(result).toEqual({ ok: true, prompt: 'Hi A & B <<b>> []' })
  })
  it('uses defaults and coerces form text to numbers and booleans', () => {
    const declarations = declare(
      { name: 'count', type: 'number', default: 3 },
      { name: 'loud', type: 'boolean' },
      { name: 'tone', type: 'enum', values: ['calm', 'bold'], default: 'calm' },
    )
    expect(
      compilePrompt('text', '{{count}} {{#loud}}LOUD{{/loud}} {{tone}}', declarations, { loud: 'true' }),
    ).toEqual({
      ok: true,
      prompt: '3 LOUD calm',
    })
    expect(compilePrompt('text', '{{count}}', declarations, { count: '7.5' })).toEqual({
      ok: true,
      prompt: '7.5',
    })
  })
  it('names each missing required value, wrong type and value outside the enum', () => {
    const declarations = declare(
      { name: 'topic', required: true },
      { name: 'count', type: 'number' },
      { name: 'tone', type: 'enum', values: ['calm'] },
    )
    expect(
      compilePrompt('text', '{{topic}}', declarations, { topic: '', count: 'many', tone: 'loud' }),
    ).toEqual({
      ok: false,
      problems: [
        { name: 'topic', problem: 'missing' },
        { name: 'count', problem: 'type' },
        { name: 'tone', problem: 'enum' },
      ],
    })
    expect(resolveValues(declare({ name: 's' }), { s: 5 }).problems).toEqual([{ name: 's', problem: 'type' }])
  })
  it('renders each chat message and leaves placeholders', () => {
    const body = JSON.stringify([
      { role: 'system', content: 'You help with {{topic}}.' },
      { type: 'placeholder', name: 'history' },
    ])
    expect(compilePrompt('chat', body, [], { topic: 'tax' })).toEqual({
      ok: true,
      prompt: [
        { role: 'system', content: 'You help with tax.' },
        { type: 'placeholder', name: 'history' },
      ],
    })
  })
  it('takes only text, numbers and booleans (or null) for undeclared variables', () => {
    expect(compilePrompt('text', '{{a}}{{b}}{{c}}{{d}}', [], { a: 'x', b: 2, c: false, d: null })).toEqual({
      ok: true,
      prompt: 'x2false',
    })
    expect(compilePrompt('text', '{{#a}}{{.}}{{/a}}{{o.x}}', [], { a: ['x', 'y'], o: { x: 1 } })).toEqual({
      ok: false,
      problems: [
        { name: 'a', problem: 'notScalar' },
        { name: 'o', problem: 'notScalar' },
      ],
    })
  })
  it('takes a list of scalars for a variable declared as a list, up to the item limit', () => {
    const declarations = declare({ name: 'steps', type: 'list', required: true })
    const template = '{{#steps}}- {{.}}\n{{/steps}}{{^steps}}none{{/steps}}'
    expect(compilePrompt('text', template, declarations, { steps: ['mix', 2, true] })).toEqual({
      ok: true,
      prompt: '- mix\n- 2\n- true\n',
    })
    expect(compilePrompt('text', template, declarations, { steps: [] })).toEqual({ ok: true, prompt: 'none' })
    const limit = VARIABLE_LIMITS.listItems
    const full = Array.from({ length: limit }, (_, index) => String(index))
    expect(compilePrompt('text', template, declarations, { steps: full }).ok).toBe(true)
    expect(compilePrompt('text', template, declarations, { steps: [...full, 'one more'] })).toEqual({
      ok: false,
      problems: [{ name: 'steps', problem: 'listTooLong' }],
    })
    for (const wrong of ['mix', [{ text: 'mix' }], [['mix']]]) {
      expect(compilePrompt('text', template, declarations, { steps: wrong })).toEqual({
        ok: false,
        problems: [{ name: 'steps', problem: 'type' }],
      })
    }
  })
  it('refuses a list where another type is declared, and a list variable takes no scalar default', () => {
    expect(resolveValues(declare({ name: 's' }), { s: ['x'] }).problems).toEqual([
      { name: 's', problem: 'type' },
    ])
    expect(
      variablesSchema.safeParse([{ name: 'l', type: 'list', default: 'x' }]).error?.issues[0]?.message,
    ).toBe('prompts.variableDefaultInvalid')
  })
  it('stops a section bomb over a declared list with the work limit', () => {
    const declarations = declare({ name: 'a', type: 'list' })
    const a = Array.from({ length: VARIABLE_LIMITS.listItems }, (_, index) => `item${index}`)
    expect(compilePrompt('text', '{{#a}}{{#a}}{{#a}}x{{/a}}{{/a}}{{/a}}', declarations, { a })).toEqual({
      ok: false,
      problems: [],
      limit: 'work',
    })
  })
  it('bounds the output of all chat messages together', () => {
    const half = 'z'.repeat(RENDER_LIMITS.output / 2)
    const message = { role: 'user', content: '{{half}}' }
    expect(compilePrompt('chat', JSON.stringify([message]), [], { half }).ok).toBe(true)
    expect(compilePrompt('chat', JSON.stringify([message, message, message]), [], { half })).toEqual({
      ok: false,
      problems: [],
      limit: 'output',
    })
  })
  it('reports a broken template instead of throwing', () => {
    expect(compilePrompt('text', '{{#open}} never closed', [], {})).toEqual({
      ok: false,
      problems: [],
      templateError: true,
    })
  })
})

describe('variablesSchema', () => {
  it('refuses duplicate names, an enum without values and a default of the wrong type', () => {
    const result = variablesSchema.safeParse([
      { name: 'a' },
      { name: 'a' },
      { name: 'e', type: 'enum' },
      { name: 'n', type: 'number', default: 'x' },
    ])
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'prompts.variableDuplicate',
      'prompts.variableEnumInvalid',
      'prompts.variableDefaultInvalid',
    ])
  })
  it('fills in the optional parts', () => {
    expect(declare({ name: 'x' })).toEqual([
      { name: 'x', type: 'string', required: false, default: null, description: null, values: [] },
    ])
  })
})

describe('lintVariables', () => {
  it('says what is used but not declared, declared but unused, and single braces', () => {
    expect(lintVariables('text', '{{a}} {{b}} {topic}', [{ name: 'a' }, { name: 'c' }])).toEqual({
      undeclared: ['b'],
      unused: ['c'],
      singleBraces: ['topic'],
    })
  })
  it('does not ask to declare anything when nothing is declared', () => {
    expect(lintVariables('text', '{{a}}', []).undeclared).toEqual([])
  })
  it('does not count {{name}} as single braces', () => {
    expect(singleBraceNamesOf('{{a}} {{{b}}} {c}')).toEqual(['c'])
  })
  it('reads the variables of chat messages', () => {
    expect(variablesOfBody('chat', JSON.stringify([{ role: 'user', content: '{{q}}' }]))).toEqual(['q'])
  })
})

describe('diffableText', () => {
  it('shows a chat prompt as one role: content line per message', () => {
    const body = JSON.stringify([
      { role: 'system', content: 'Be brief.' },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: '{{q}}' },
    ])
    expect(diffableText('chat', body)).toBe('system: Be brief.\n[placeholder: history]\nuser: {{q}}')
    expect(diffableText('text', 'plain')).toBe('plain')
  })
})
