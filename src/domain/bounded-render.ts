import Mustache from 'mustache'

/**
 * Mustache rendering with a budget. Sections over lists multiply: three nested sections over a
 * 200-item list render 8 million copies, and rendering is synchronous, so one request would hold
 * the server's only thread (or the browser's tab) for as long as that takes. Mustache's own writer
 * renders here, so ordinary templates render exactly as the Langfuse SDK renders them; it only
 * counts as it goes and stops at the first step past a limit. Before it starts, a cheap estimate
 * from the parsed template and the values refuses the plain section bomb without rendering at all.
 */
export const RENDER_LIMITS = {
  /** Characters of output per compile (all messages of a chat prompt together). */
  output: 1_000_000,
  /**
   * Steps per compile: one per token rendered, one per section entered and, per name looked up,
   * one per enclosing section it may have to search. Ordinary prompts take a few thousand; at
   * about a microsecond a step, the limit is reached within a tenth of a second.
   */
  work: 100_000,
} as const

export type RenderLimit = 'output' | 'work'

export class RenderLimitError extends Error {
  constructor(readonly limit: RenderLimit) {
    super(`template render exceeded its ${limit} limit`)
  }
}

/** What one compile may still spend; shared by every template the compile renders. */
export class RenderBudget {
  private output = 0
  private work = 0

  spendWork(steps: number) {
    this.work += steps
    if (this.work > RENDER_LIMITS.work) throw new RenderLimitError('work')
  }

  /** Refuses now what the render would certainly spend beyond the limit. */
  expectWork(steps: number) {
    if (this.work + steps > RENDER_LIMITS.work) throw new RenderLimitError('work')
  }

  spendOutput(text: string): string {
    this.output += text.length
    if (this.output > RENDER_LIMITS.output) throw new RenderLimitError('output')
    return text
  }
}

/** Mustache's parsed form: `[kind, name or text, start, end, children?, …]`. */
type Token = [string, string, number, number, Token[]?, ...unknown[]]

/**
 * The steps a render takes at least, counting only what certainly happens: each token, each
 * lookup at its depth, and a section named by a list of the values entered once per item
 * (Mustache looks a name up outwards from scalar items to the values, so nesting multiplies), one
 * named by another value that is not empty once; other sections and inverted ones count nothing.
 * Stops counting once past `limit` (passed down as what is left of it).
 */
function leastSteps(
  tokens: Token[],
  view: Record<string, unknown>,
  limit: number,
  times = 1,
  depth = 1,
): number {
  let steps = times * (1 + tokens.length)
  for (const [kind, name, , , children] of tokens) {
    if (steps > limit) break
    if (kind === 'name' || kind === '&' || kind === '#' || kind === '^') steps += times * depth
    if (kind !== '#' || !children) continue
    const value = Object.hasOwn(view, name) ? view[name] : undefined
    const repeat = Array.isArray(value) ? value.length : value ? 1 : 0
    // Mustache renders a `true` section in the same context; any other value is pushed as one.
    const inner = value === true ? depth : depth + 1
    if (repeat > 0) steps += leastSteps(children, view, limit - steps, times * repeat, inner)
  }
  return steps
}

/** Mustache's tests of "has this property" (mustache.js 4.2.0, `hasProperty` and its primitive twin). */
function hasProperty(value: unknown, name: string): boolean {
  if (value == null) return false
  return typeof value === 'object' ? name in value : Object.hasOwn(Object(value), name)
}

/** Where a name is found in one context's view: Mustache's rules, dotted names included. */
function find(view: unknown, name: string): { hit: boolean; value: unknown } {
  if (name.indexOf('.') <= 0) {
    return {
      hit: view != null && typeof view === 'object' && name in view,
      value: (view as Record<string, unknown>)[name],
    }
  }
  const names = name.split('.')
  let value = view
  let hit = false
  for (let index = 0; value != null && index < names.length; index++) {
    const part = names[index]!
    if (index === names.length - 1) hit = hasProperty(value, part)
    value = (value as Record<string, unknown>)[part]
  }
  return { hit, value }
}

/**
 * Mustache's context with its lookup rewritten in the same steps but one: a name that reaches a
 * function (values are JSON, so only a built-in such as `items.slice` can be one) is no value.
 * Mustache would call it with the current item, which can build arrays no step counts.
 */
class BoundedContext extends Mustache.Context {
  /** How many contexts a lookup may walk through (Mustache searches outwards). */
  private readonly depth: number
  private readonly found = new Map<string, unknown>()

  constructor(
    view: unknown,
    private readonly budget: RenderBudget,
    parent?: BoundedContext,
  ) {
    super(view, parent)
    this.depth = parent ? parent.depth + 1 : 1
    this.found.set('.', view)
  }

  override push(view: unknown): BoundedContext {
    return new BoundedContext(view, this.budget, this)
  }

  override lookup(name: string): unknown {
    // A long name costs its length in every context it is searched in.
    this.budget.spendWork(this.depth * Math.ceil((name.length + 1) / 32))
    if (!this.found.has(name)) {
      let value: unknown
      for (let context: Mustache.Context | undefined = this; context; context = context.parent) {
        const found = find(context.view, name)
        if (found.hit) {
          value = found.value
          break
        }
      }
      this.found.set(name, value)
    }
    const value = this.found.get(name)
    return typeof value === 'function' ? undefined : value
  }
}

/**
 * Parsed templates, by text. Mustache parses a character at a time (about a microsecond each), so
 * compiling one large prompt again and again reuses its parse. Bounded by the characters held;
 * an entry is a pure function of its key, so it is never stale and no process needs telling.
 */
const parsedTemplates = new Map<string, Token[]>()
const PARSE_CACHE_CHARACTERS = 2_000_000
let cachedCharacters = 0

function parseCached(template: string, parse: (template: string) => Token[]): Token[] {
  const hit = parsedTemplates.get(template)
  if (hit) {
    parsedTemplates.delete(template)
    parsedTemplates.set(template, hit) // most recently used last
    return hit
  }
  const tokens = parse(template)
  if (template.length <= PARSE_CACHE_CHARACTERS) {
    parsedTemplates.set(template, tokens)
    cachedCharacters += template.length
    for (const [oldest] of parsedTemplates) {
      if (cachedCharacters <= PARSE_CACHE_CHARACTERS) break
      parsedTemplates.delete(oldest)
      cachedCharacters -= oldest.length
    }
  }
  return tokens
}

type RenderTokens = Mustache.Writer['renderTokens']

/** Mustache's writer, counting every step and every piece of output it appends. */
class BoundedWriter extends Mustache.Writer {
  constructor(private readonly budget: RenderBudget) {
    super()
  }

  override parse(template: string, tags?: Mustache.OpeningAndClosingTags): Token[] {
    if (tags) return super.parse(template, tags)
    return parseCached(template, (text) => super.parse(text))
  }

  override renderTokens(...args: Parameters<RenderTokens>): string {
    this.budget.spendWork(1 + args[0].length)
    return super.renderTokens(...args)
  }

  override rawValue(token: string[]): string {
    return this.budget.spendOutput(super.rawValue(token))
  }

  override escapedValue(...args: Parameters<Mustache.Writer['escapedValue']>): string {
    const value: unknown = super.escapedValue(...args)
    return (value === undefined ? value : this.budget.spendOutput(String(value))) as string
  }

  override unescapedValue(...args: Parameters<Mustache.Writer['unescapedValue']>): string {
    const value: unknown = super.unescapedValue(...args)
    return (value === undefined ? value : this.budget.spendOutput(String(value))) as string
  }
}

const noEscape = { escape: (text: string) => text }

/**
 * Renders like `Mustache.render(template, view)` with HTML escaping off (as the Langfuse SDK
 * does), charging `budget`; throws `RenderLimitError` past a limit, or Mustache's error for a
 * broken template. A writer of its own each time: Mustache's shared one keeps every template it
 * ever parsed.
 */
export function renderBounded(template: string, view: Record<string, unknown>, budget: RenderBudget): string {
  const writer = new BoundedWriter(budget)
  budget.expectWork(leastSteps(writer.parse(template), view, RENDER_LIMITS.work))
  return writer.render(template, new BoundedContext(view, budget), undefined, noEscape)
}
