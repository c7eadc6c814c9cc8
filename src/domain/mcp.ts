import { type Locale, translate } from './messages/index.ts'
import { type ChatEntry, type ChatMessage, chatMessageSchema, type PromptType } from './prompt-names.ts'
import { type CompiledPrompt, type VariableDeclaration, variablesOfBody } from './prompt-variables.ts'

/**
 * The MCP server's rules that need no framework (decision 0253): which arguments a prompt offers,
 * how argument texts become compile values, and how a compiled prompt becomes MCP's messages.
 */

/** Prompts per `prompts/list` page and the most a `list_prompts` call may ask for. */
export const MCP_PAGE_SIZE = 100

export interface McpPromptArgument {
  name: string
  description?: string
  required: boolean
}

/** What an argument's description adds to the declared one: the type a value must have, its default. */
function typeHint(declaration: VariableDeclaration, locale: Locale): string | null {
  switch (declaration.type) {
    case 'enum':
      return translate(locale, 'mcp.argumentOneOf', { values: declaration.values.join(', ') })
    case 'number':
      return translate(locale, 'mcp.argumentNumber')
    case 'boolean':
      return translate(locale, 'mcp.argumentBoolean')
    case 'list':
      return translate(locale, 'mcp.argumentList')
    default:
      return null
  }
}

function describeDeclaration(declaration: VariableDeclaration, locale: Locale): string | undefined {
  const parts = [
    declaration.description,
    typeHint(declaration, locale),
    declaration.default !== null
      ? translate(locale, 'mcp.argumentDefault', { value: String(declaration.default) })
      : null,
  ].filter((part): part is string => Boolean(part))
  return parts.length > 0 ? parts.join(' · ') : undefined
}

/** The placeholders of a chat prompt's body, in order. */
export function placeholderNamesOf(type: PromptType, entries: string | readonly ChatEntry[]): string[] {
  if (type !== 'chat' || typeof entries === 'string') return []
  return entries.flatMap((entry) => ('type' in entry ? [entry.name] : []))
}

/**
 * A version's MCP arguments: one per declared variable (its description, type hint and default;
 * required when it is required and has no default, as compile treats it), then each variable the
 * body uses without a declaration (optional, as compile leaves it empty), then each placeholder
 * (optional: a JSON list of messages, none when absent).
 */
export function promptArguments(
  type: PromptType,
  body: string,
  parsedBody: string | readonly ChatEntry[],
  declarations: readonly VariableDeclaration[],
  locale: Locale,
): McpPromptArgument[] {
  const declared = declarations.map((declaration) => {
    const description = describeDeclaration(declaration, locale)
    return {
      name: declaration.name,
      ...(description !== undefined && { description }),
      required: declaration.required && declaration.default === null,
    }
  })
  const known = new Set(declared.map((argument) => argument.name))
  const undeclared = variablesOfBody(type, body)
    .filter((name) => !known.has(name))
    .map((name) => ({ name, required: false }))
  const placeholders = placeholderNamesOf(type, parsedBody).map((name) => ({
    name,
    description: translate(locale, 'mcp.argumentPlaceholder'),
    required: false,
  }))
  return [...declared, ...undeclared, ...placeholders]
}

export type ArgumentProblem = { name: string; key: 'mcp.listArgumentInvalid' | 'mcp.placeholderInvalid' }

/**
 * MCP arguments are texts. A variable declared as a list takes a JSON list; numbers and booleans
 * are coerced by compile itself (as a form's fields are). A placeholder's argument is a JSON list
 * of messages `{role, content}`, kept apart: compile leaves placeholders, they are filled after.
 */
export function valuesOfArguments(
  declarations: readonly VariableDeclaration[],
  placeholders: readonly string[],
  args: Readonly<Record<string, string>>,
):
  | { ok: true; values: Record<string, unknown>; filled: Record<string, ChatMessage[]> }
  | { ok: false; problem: ArgumentProblem } {
  const lists = new Set(declarations.filter((d) => d.type === 'list').map((d) => d.name))
  const placeholderSet = new Set(placeholders)
  const values: Record<string, unknown> = {}
  const filled: Record<string, ChatMessage[]> = {}
  for (const [name, text] of Object.entries(args)) {
    if (placeholderSet.has(name)) {
      const messages = parseMessages(text)
      if (!messages) return { ok: false, problem: { name, key: 'mcp.placeholderInvalid' } }
      filled[name] = messages
    } else if (lists.has(name) && text !== '') {
      const list = parseJson(text)
      if (!Array.isArray(list)) return { ok: false, problem: { name, key: 'mcp.listArgumentInvalid' } }
      values[name] = list
    } else {
      values[name] = text
    }
  }
  return { ok: true, values, filled }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** A JSON list of `{role, content}` messages, else null. An empty text is an empty list. */
function parseMessages(text: string): ChatMessage[] | null {
  if (text.trim() === '') return []
  const list = parseJson(text)
  if (!Array.isArray(list)) return null
  const messages: ChatMessage[] = []
  for (const item of list) {
    const parsed = chatMessageSchema.safeParse(item)
    if (!parsed.success || !('role' in parsed.data)) return null
    messages.push(parsed.data)
  }
  return messages
}

export interface McpPromptMessage {
  role: 'user' | 'assistant'
  content: { type: 'text'; text: string; _meta?: Record<string, unknown> }
}

/** Where a message's own role is kept when MCP has no such role (`system`, `developer`, `tool`…). */
export const ORIGINAL_ROLE_META = 'promptfolio/role'

/**
 * A compiled prompt as MCP's messages. A text prompt is one user message. A chat prompt's
 * placeholders are replaced by the messages given for them (none when not given). MCP knows only
 * `user` and `assistant`: those keep their role; every other role (system above all) becomes a
 * `user` message in its place, its text unchanged, with its own role in the content's `_meta`
 * (`promptfolio/role`), so nothing is merged, reordered or reworded and a client that reads the
 * role can still restore it.
 */
export function mcpMessagesOf(
  compiled: CompiledPrompt,
  filled: Readonly<Record<string, readonly ChatMessage[]>>,
): McpPromptMessage[] {
  const entries = fillPlaceholders(compiled, filled, false)
  if (typeof entries === 'string') return [{ role: 'user', content: { type: 'text', text: entries } }]
  return entries.flatMap((entry) => ('role' in entry ? [mcpMessageOf(entry)] : []))
}

/**
 * A compiled chat prompt with its placeholders replaced by the messages given for them, as given
 * (not compiled, as the Langfuse SDK inserts them). An unfilled placeholder stays (`keepUnfilled`,
 * the raw-ish answer of the `get_prompt` tool) or is dropped (MCP's messages have no such entry).
 */
export function fillPlaceholders(
  compiled: CompiledPrompt,
  filled: Readonly<Record<string, readonly ChatMessage[]>>,
  keepUnfilled: boolean,
): CompiledPrompt {
  if (typeof compiled === 'string') return compiled
  return compiled.flatMap((entry): ChatEntry[] => {
    if (!('type' in entry)) return [entry]
    return [...(filled[entry.name] ?? (keepUnfilled ? [entry] : []))]
  })
}

function mcpMessageOf(message: ChatMessage): McpPromptMessage {
  if (message.role === 'user' || message.role === 'assistant') {
    return { role: message.role, content: { type: 'text', text: message.content } }
  }
  return {
    role: 'user',
    content: { type: 'text', text: message.content, _meta: { [ORIGINAL_ROLE_META]: message.role } },
  }
}
