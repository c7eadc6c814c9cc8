import Mustache from 'mustache'
import { describe, expect, it } from 'vitest'
import { RENDER_LIMITS, RenderBudget, RenderLimitError, renderBounded } from './bounded-render.ts'

const render = (template: string, view: Record<string, unknown>, budget = new RenderBudget()) =>
  renderBounded(template, view, budget)

/** The limit a render stopped at, or its output. */
function outcome(template: string, view: Record<string, unknown>, budget = new RenderBudget()) {
  try {
    return render(template, view, budget)
  } catch (error) {
    if (error instanceof RenderLimitError) return `limit: ${error.limit}`
    throw error
  }
}

const items = (count: number, text = 'item') => Array.from({ length: count }, (_, index) => `${text}${index}`)

describe('renderBounded renders as Mustache does', () => {
  const view = {
    name: 'Ada & <Bob>',
    count: 3,
    zero: 0,
    flag: true,
    off: false,
    empty: '',
    list: ['a', 'b', 'c'],
    none: [],
    text: 'hello',
  }
  it.each([
    'Hi {{name}}, {{{name}}} and {{&name}} [{{missing}}]',
    '{{#flag}}on{{/flag}}{{^off}} not off{{/off}}{{#off}}never{{/off}}{{^none}} none{{/none}}',
    '{{#list}}- {{.}} of {{count}}\n{{/list}}',
    'Items:\n{{#list}}\n  * {{.}}\n{{/list}}\nEnd',
    '{{#text}}{{text.length}} {{.}}{{/text}} {{zero}} [{{empty}}]',
    '{{! a comment }}{{=<% %>=}}<% name %> {{name}}<%={{ }}=%> {{count}}',
    'before [{{> partial}}] after',
    '{{#list}}{{#list}}{{.}}{{/list}};{{/list}}',
    '{{#count}}{{count}} times{{/count}}',
  ])('%s', (template) => {
    expect(render(template, view)).toBe(
      Mustache.render(template, view, undefined, { escape: (text) => text }),
    )
  })

  it('throws Mustache’s error for a broken template', () => {
    expect(() => render('{{#open}} never closed', {})).toThrow(/Unclosed section/)
  })
})

describe('renderBounded stops at its limits', () => {
  it('refuses nested sections over a list before rendering them', () => {
    // A thousand million copies: this test only finishes because nothing is rendered.
    expect(outcome('{{#a}}{{#a}}{{#a}}x{{/a}}{{/a}}{{/a}}', { a: items(1000) })).toBe('limit: work')
    expect(outcome('{{#a}}{{#a}}{{#a}}{{#a}}{{/a}}{{/a}}{{/a}}{{/a}}', { a: items(100) })).toBe('limit: work')
  })

  it('renders a list nested in itself while it stays small, and a full list with many fields', () => {
    expect(render('{{#a}}{{#a}}{{.}}{{/a}}|{{/a}}', { a: ['x', 'y'] })).toBe('xy|xy|')
    const fields = Array.from({ length: 30 }, (_, index) => `{{f${index}}}`).join(', ')
    const view = {
      steps: items(100),
      ...Object.fromEntries(items(30).map((_, index) => [`f${index}`, index])),
    }
    const template = `{{#steps}}{{#flag}}!{{/flag}}- {{.}}: ${fields}\n{{/steps}}`
    expect(render(template, { ...view, flag: true })).toBe(
      Mustache.render(template, { ...view, flag: true }, undefined, { escape: (text) => text }),
    )
  })

  it('stops output past the character limit, counting every template of one budget', () => {
    const big = 'z'.repeat(20_000)
    expect(outcome('{{#l}}{{s}}{{/l}}', { l: items(100), s: big })).toBe('limit: output')
    const budget = new RenderBudget()
    const half = { s: 'z'.repeat(RENDER_LIMITS.output / 2 + 1) }
    expect(render('{{s}}', half, budget)).toHaveLength(RENDER_LIMITS.output / 2 + 1)
    expect(outcome('{{s}}', half, budget)).toBe('limit: output')
  })

  it('counts the work of sections the estimate cannot see', () => {
    // `a.length` is a number (a section rendered once), which the estimate does not look up.
    const template =
      '{{#a}}{{#a.length}}{{#a}}{{#a.length}}{{#a}}x{{/a}}{{/a.length}}{{/a}}{{/a.length}}{{/a}}'
    expect(outcome(template, { a: items(100) })).toBe('limit: work')
  })

  it('refuses sections nested too deep instead of overflowing the stack', () => {
    const deep = (levels: number) => `${'{{#a}}'.repeat(levels)}x${'{{/a}}'.repeat(levels)}`
    expect(render(deep(50), { a: 'y' })).toBe('x')
    expect(outcome(deep(5_000), { a: 'y' })).toBe('limit: work')
  })

  it('does not call built-in functions a name reaches', () => {
    // Mustache would call `Array.prototype.slice` on each item: a list of its characters.
    expect(
      render('{{#items}}[{{#items.slice}}{{.}}{{/items.slice}}]{{/items}}', { items: ['ab', 'cd'] }),
    ).toBe('[][]')
    expect(render('[{{#constructor.constructor}}x{{/constructor.constructor}}]', {})).toBe('[]')
  })
})
