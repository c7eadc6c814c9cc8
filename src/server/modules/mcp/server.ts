import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListToolsRequestSchema,
} from '@modelcontextprotocol/sdk/types.js'
import { z } from 'zod'
import { scopeAllows } from '../../../domain/api-keys.ts'
import { AppError } from '../../../domain/errors.ts'
import { langfuseCreateFields, langfuseCreateSchema, langfuseListQuery } from '../../../domain/langfuse.ts'
import { cursorParam } from '../../../domain/list-params.ts'
import {
  fillPlaceholders,
  MCP_PAGE_SIZE,
  mcpMessagesOf,
  placeholderNamesOf,
  promptArguments,
  valuesOfArguments,
} from '../../../domain/mcp.ts'
import {
  type Locale,
  type MessageKey,
  type MessageParams,
  translate,
} from '../../../domain/messages/index.ts'
import {
  type ChatMessage,
  chatMessageSchema,
  chatPromptSchema,
  labelSchema,
  PRODUCTION_LABEL,
  PROMPT_NAME_MAX,
  parsePromptBody,
} from '../../../domain/prompt-names.ts'
import { compilePromptInput, variablesInput } from '../../../domain/prompt-variables.ts'
import { listPromptsQuery } from '../../../domain/prompts.ts'
import type { PlanGate } from '../../core/plan-gate.ts'
import type { ApiKeyPrincipal } from '../../core/principal.ts'
import type { Db } from '../../db/client.ts'
import type { Logger } from '../../log.ts'
import { addLangfuseLabels, createLangfuseVersion, getLangfusePrompt } from '../langfuse/index.ts'
import { compileFoundVersion, findCompileVersion } from '../prompts/index.ts'
import { findSpacePrompt, listSpacePrompts, type SpacePromptItem } from './space-prompts.ts'

/**
 * The MCP server of one request (decision 0253): the prompts capability and the tools, for the
 * space of the key that authenticated the request. Stateless: one is built per HTTP request, so
 * any app process answers any request. Writes go through the Langfuse door's services (the same
 * label rules, audit entries and webhook events as every other door).
 */
export interface McpDeps {
  db: Db
  plans: PlanGate
  log: Logger | undefined
  version: string
}

/**
 * An error MCP's answer carries as it is: the SDK sends a thrown error's `code`, `message` and
 * `data` (its own McpError would put "MCP error -32602:" in front of the message).
 */
class McpRefusal extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

const promptName = z.string().min(1).max(PROMPT_NAME_MAX)
const versionNumber = compilePromptInput.shape.version.unwrap()

/** The tools' inputs, made of the HTTP operations' own field schemas. */
const toolInputs = {
  list_prompts: z.object({
    search: listPromptsQuery.shape.search,
    tag: langfuseListQuery.shape.tag,
    label: langfuseListQuery.shape.label,
    cursor: cursorParam.optional(),
    limit: z.number().int().min(1).max(MCP_PAGE_SIZE).optional(),
  }),
  get_prompt: z.object({
    name: promptName,
    label: compilePromptInput.shape.label,
    version: compilePromptInput.shape.version,
    // Placeholders take a list of messages here, variables their values (as the app's compile).
    values: compilePromptInput.shape.values,
    raw: z.boolean().optional(),
  }),
  create_prompt_version: langfuseCreateFields
    .omit({ isActive: true })
    .extend({ prompt: z.union([z.string(), chatPromptSchema]), variables: variablesInput }),
  move_label: z.object({ name: promptName, version: versionNumber, label: labelSchema }),
} as const
type ToolName = keyof typeof toolInputs

const toolDescriptions: Record<ToolName, MessageKey> = {
  list_prompts: 'mcp.toolListPrompts',
  get_prompt: 'mcp.toolGetPrompt',
  create_prompt_version: 'mcp.toolCreatePromptVersion',
  move_label: 'mcp.toolMoveLabel',
}
const writeTools: ReadonlySet<ToolName> = new Set(['create_prompt_version', 'move_label'])

/** The tools' JSON Schemas, made once from the zod schemas (their input side). */
const toolSchemas = Object.fromEntries(
  Object.entries(toolInputs).map(([name, schema]) => {
    const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })
    return [name, json]
  }),
) as unknown as Record<ToolName, { type: 'object'; [key: string]: unknown }>

const isToolName = (name: string): name is ToolName => name in toolInputs

/** A zod refusal in the request's language: each problem's path and message. */
function issuesText(error: z.ZodError, locale: Locale): string {
  const problems = error.issues.map((issue) => {
    const params = (issue as { params?: MessageParams }).params
    const message = translate(locale, issue.message as MessageKey, params) || issue.message
    return issue.path.length > 0 ? `${issue.path.join('.')}: ${message}` : message
  })
  return translate(locale, 'mcp.invalidArguments', { problems: problems.join('; ') })
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, locale: Locale): z.output<S> {
  const result = schema.safeParse(value)
  if (!result.success) throw new McpRefusal(ErrorCode.InvalidParams, issuesText(result.error, locale))
  return result.data
}

const notFound = (name: string, selector: { version?: number; label?: string }) =>
  selector.version !== undefined
    ? new AppError('not_found', 'mcp.promptNotFoundByVersion', {
        params: { name, version: selector.version },
      })
    : new AppError('not_found', 'mcp.promptNotFoundByLabel', {
        params: { name, label: selector.label ?? PRODUCTION_LABEL },
      })

/** The arguments `prompts/list` offers for a listed prompt (its production version's). */
function argumentsOf(item: SpacePromptItem, locale: Locale) {
  if (!item.production) return []
  return promptArguments(
    item.type,
    item.production.body,
    item.production.parsedBody,
    item.production.variables,
    locale,
  )
}

export function mcpServerFor(deps: McpDeps, principal: ApiKeyPrincipal, locale: Locale): Server {
  const { db, plans } = deps
  const { space } = principal
  const server = new Server(
    { name: 'promptfolio', version: deps.version },
    // No listChanged: a stateless server keeps no stream open to send it on (decision 0253).
    { capabilities: { prompts: {}, tools: {} } },
  )

  /** One version of a prompt compiled with `values`, placeholders filled from `filled`. */
  const compiled = async (
    name: string,
    selector: { version?: number; label?: string },
    argumentsOf: (version: {
      variables: Parameters<typeof valuesOfArguments>[0]
      placeholders: string[]
    }) => { values: Record<string, unknown>; filled: Record<string, ChatMessage[]> },
  ) => {
    const prompt = await findSpacePrompt(db, space, name)
    const version = prompt && (await findCompileVersion(db, prompt, selector))
    if (!prompt || !version) throw notFound(name, selector)
    const placeholders = placeholderNamesOf(prompt.type, parsePromptBody(prompt.type, version.body))
    const { values, filled } = argumentsOf({ variables: version.variables, placeholders })
    const answer = await compileFoundVersion(db, prompt, version, values)
    return { prompt, answer, filled }
  }

  server.setRequestHandler(ListPromptsRequestSchema, async (request) =>
    answerMcp(deps, locale, async () => {
      const page = await listSpacePrompts(
        db,
        space,
        { productionOnly: true },
        { cursor: request.params?.cursor, limit: MCP_PAGE_SIZE },
      )
      return {
        prompts: page.items.map((item) => ({
          name: item.name,
          title: item.title,
          ...(item.description && { description: item.description }),
          arguments: argumentsOf(item, locale),
        })),
        ...(page.nextCursor && { nextCursor: page.nextCursor }),
      }
    }),
  )

  server.setRequestHandler(GetPromptRequestSchema, async (request) =>
    answerMcp(deps, locale, async () => {
      const args = request.params.arguments ?? {}
      // `label` and `version` are the client's choice of version, not the prompt's variables.
      const { label, version: versionText, ...rest } = args
      const selector = parseWith(
        compilePromptInput,
        {
          ...(label !== undefined && label !== '' && { label }),
          ...(versionText !== undefined && versionText !== '' && { version: Number(versionText) }),
        },
        locale,
      )
      const { prompt, answer, filled } = await compiled(request.params.name, selector, (version) => {
        const converted = valuesOfArguments(version.variables, version.placeholders, rest)
        if (!converted.ok) {
          const { name, key } = converted.problem
          throw new McpRefusal(ErrorCode.InvalidParams, translate(locale, key, { name }))
        }
        return converted
      })
      return {
        ...(prompt.description && { description: prompt.description }),
        messages: mcpMessagesOf(answer.prompt, filled),
      }
    }),
  )

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    // A read key is offered only the tools it may call (a call of another is still refused).
    tools: (Object.keys(toolInputs) as ToolName[])
      .filter((name) => !writeTools.has(name) || scopeAllows(principal.scope, 'POST'))
      .map((name) => ({
        name,
        description: translate(locale, toolDescriptions[name]),
        inputSchema: toolSchemas[name],
      })),
  }))

  const tools: { [T in ToolName]: (input: z.output<(typeof toolInputs)[T]>) => Promise<unknown> } = {
    list_prompts: async (input) => {
      const page = await listSpacePrompts(
        db,
        space,
        { search: input.search, tag: input.tag, label: input.label },
        { cursor: input.cursor, limit: input.limit ?? MCP_PAGE_SIZE },
      )
      return {
        items: page.items.map((item) => ({
          name: item.name,
          title: item.title,
          description: item.description,
          type: item.type,
          tags: item.tags,
          labels: item.labels,
          productionVersion: item.production?.version ?? null,
          arguments: argumentsOf(item, locale),
        })),
        nextCursor: page.nextCursor,
      }
    },
    get_prompt: async (input) => {
      const selector = parseWith(
        compilePromptInput,
        { values: input.values, label: input.label, version: input.version },
        locale,
      )
      if (input.raw) {
        const prompt = await findSpacePrompt(db, space, input.name)
        const version = prompt && (await findCompileVersion(db, prompt, selector))
        const fetched = version && (await getLangfusePrompt(db, space, input.name, selector))
        if (!fetched || !version) throw notFound(input.name, selector)
        const { resolutionGraph: _, projectId: __, ...raw } = fetched
        return { ...raw, variables: version.variables }
      }
      const { answer, filled } = await compiled(input.name, selector, (version) => {
        // Placeholders take their messages from `values`; compile takes the rest.
        const values = { ...selector.values }
        const filled: Record<string, ChatMessage[]> = {}
        for (const name of version.placeholders) {
          if (values[name] === undefined) continue
          filled[name] = parseWith(z.array(chatMessageSchema), values[name], locale).filter(
            (entry): entry is ChatMessage => 'role' in entry,
          )
          delete values[name]
        }
        return { values, filled }
      })
      return {
        name: input.name,
        version: answer.versionNumber,
        type: answer.type,
        prompt: fillPlaceholders(answer.prompt, filled, true),
      }
    },
    create_prompt_version: async (input) => {
      const { variables, ...fields } = input
      const create = parseWith(langfuseCreateSchema, fields, locale)
      return createLangfuseVersion(db, plans, principal, {
        ...create,
        ...(variables && { variables }),
      })
    },
    move_label: async (input) => {
      const moved = await addLangfuseLabels(db, principal, input.name, input.version, [input.label])
      if (!moved) throw notFound(input.name, { version: input.version })
      const { resolutionGraph: _, projectId: __, ...answer } = moved
      return answer
    },
  }

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const name = request.params.name
    if (!isToolName(name)) {
      throw new McpRefusal(ErrorCode.InvalidParams, translate(locale, 'mcp.toolUnknown', { name }))
    }
    try {
      if (writeTools.has(name) && !scopeAllows(principal.scope, 'POST')) {
        throw new AppError('forbidden', 'apiKeys.readOnly')
      }
      const input = parseWith(toolInputs[name], request.params.arguments ?? {}, locale)
      const result = await (tools[name] as (input: unknown) => Promise<unknown>)(input)
      return { content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] }
    } catch (error) {
      // A refusal is the tool's answer (the model reads it and may correct itself), as MCP asks.
      const message = refusalText(error, locale)
      if (message === null) throw internalError(deps, error)
      return { isError: true, content: [{ type: 'text', text: message }] }
    }
  })

  return server
}

/** The text of a refusal (ours, or a bad argument), else null: an unexpected error. */
function refusalText(error: unknown, locale: Locale): string | null {
  if (error instanceof McpRefusal) return error.message
  if (error instanceof AppError) return translate(locale, error.messageKey, error.options.params)
  return null
}

function internalError(deps: McpDeps, error: unknown): McpRefusal {
  deps.log?.error('unhandled MCP error', { err: error })
  return new McpRefusal(ErrorCode.InternalError, 'Internal error')
}

/**
 * A prompts request's answer; our refusals become MCP's errors: a missing prompt, a bad or missing
 * argument are invalid params (-32602, as MCP's prompts spec says), anything else keeps its text.
 */
async function answerMcp<T>(deps: McpDeps, locale: Locale, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (error instanceof McpRefusal) throw error
    if (error instanceof AppError) {
      const code =
        error.code === 'validation' || error.code === 'not_found' ? ErrorCode.InvalidParams : -32000
      throw new McpRefusal(code, translate(locale, error.messageKey, error.options.params), {
        code: error.code,
        ...(error.options.fields && { fields: error.options.fields }),
      })
    }
    throw internalError(deps, error)
  }
}
