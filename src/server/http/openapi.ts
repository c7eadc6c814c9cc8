import { z } from 'zod'
import { type ErrorCode, errorStatus } from '../../domain/errors.ts'

/**
 * One operation of the JSON API as the OpenAPI document describes it. Request bodies and query
 * strings point at the same domain schemas the routes parse with, so the document cannot promise
 * a shape the server refuses; a test keeps the list of operations equal to the app's routes.
 */
export interface ApiOperation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete'
  /** Under `/api`, with Hono's parameters (`/v1/prompts/:id`). */
  path: string
  summary: string
  /** Who may call it; 'public' needs no session. */
  access: 'public' | 'signed-in' | 'global-admin'
  query?: z.ZodObject
  body?: z.ZodType
  /** The success status and what its body holds (no body for 204). */
  success: { status: 200 | 201 | 204; description: string }
  /** Errors beyond the ones every operation of its access level can answer. */
  errors?: ErrorCode[]
}

export interface ApiTag {
  name: string
  description: string
  operations: ApiOperation[]
}

type JsonSchema = Record<string, unknown>

/** Input view of a schema: what a client sends, before the server's defaults and trimming. */
function inputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })
  return rest
}

function queryParameters(query: z.ZodObject) {
  const json = inputSchema(query) as { properties?: Record<string, JsonSchema>; required?: string[] }
  return Object.entries(json.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema,
  }))
}

const pathParameter = /:([A-Za-z]+)/g

function errorResponses(operation: ApiOperation) {
  const codes = new Set<ErrorCode>(['unexpected', ...(operation.errors ?? [])])
  if (operation.access !== 'public') codes.add('not_authenticated')
  if (operation.access === 'global-admin') codes.add('forbidden')
  if (operation.body || operation.query) codes.add('validation')
  if (operation.body) codes.add('payload_too_large')
  if (operation.path.includes(':')) codes.add('not_found')
  const responses: Record<string, unknown> = {}
  for (const code of [...codes].sort((a, b) => errorStatus[a] - errorStatus[b])) {
    responses[String(errorStatus[code])] = {
      description: `\`${code}\``,
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    }
  }
  return responses
}

function toOpenApiOperation(tag: string, operation: ApiOperation) {
  const parameters = [
    ...[...operation.path.matchAll(pathParameter)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: { type: 'string' },
    })),
    ...(operation.query ? queryParameters(operation.query) : []),
  ]
  const { status, description } = operation.success
  return {
    tags: [tag],
    summary: operation.summary,
    ...(operation.access === 'public' && { security: [] }),
    ...(parameters.length > 0 && { parameters }),
    ...(operation.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: inputSchema(operation.body) } },
      },
    }),
    responses: {
      [String(status)]:
        status === 204 ? { description } : { description, content: { 'application/json': {} } },
      ...errorResponses(operation),
    },
  }
}

/** The OpenAPI 3.1 document of `/api`, served at `/api/v1/openapi.json`. */
export function openApiDocument(tags: ApiTag[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const tag of tags) {
    for (const operation of tag.operations) {
      const path = `/api${operation.path.replace(pathParameter, '{$1}')}`
      paths[path] ??= {}
      paths[path][operation.method] = toOpenApiOperation(tag.name, operation)
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Promptfolio API',
      version,
      description:
        'The JSON API the Promptfolio web app uses. Sign in through `/api/v1/auth/*` (the session ' +
        'cookie `promptfolio.session_token` is set), then send JSON with the app origin in ' +
        '`Origin` for every state-changing request. Error messages follow `Accept-Language` (en, de).',
    },
    tags: tags.map(({ name, description }) => ({ name, description })),
    security: [{ session: [] }],
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'promptfolio.session_token' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: { type: 'string', enum: Object.keys(errorStatus) },
                message: { type: 'string', description: "In the caller's language" },
                fields: {
                  type: 'object',
                  additionalProperties: { type: 'string' },
                  description: 'Field name → message, for validation errors',
                },
                retryAfter: { type: 'integer', description: 'Seconds, with rate_limited' },
                reason: { type: 'string', description: "A finer cause, e.g. 'stale_version'" },
              },
            },
          },
        },
      },
    },
  }
}
