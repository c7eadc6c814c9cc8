import { z } from 'zod'
import {
  errorCodesOf,
  needsRecentSignIn,
  type Operation,
  type OperationGroup,
  type OperationSpec,
  operationsOf,
  successStatus,
} from '../../domain/api/operation.ts'
import { errorStatus } from '../../domain/errors.ts'
import { permissionRules } from '../../domain/permissions.ts'

type JsonSchema = Record<string, unknown>

/** The operation's object-level rule and whether it needs a recent sign-in, for its description. */
function description(spec: OperationSpec): string {
  return [
    spec.permission && `Permission: \`${spec.permission}\`: ${permissionRules[spec.permission]}.`,
    needsRecentSignIn(spec) &&
      'Needs a sign-in of the last 10 minutes: otherwise 403 with `reason: "reauthentication_required"` (sign in again with `POST /api/v1/auth/reauthenticate`).',
  ]
    .filter(Boolean)
    .join(' ')
}

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

/** The envelopes' schemas in `components.schemas`. */
const errorSchemaOf = {
  promptfolio: '#/components/schemas/Error',
  langfuse: '#/components/schemas/LangfuseError',
} as const

/** Who may call: a session (the document's default), or a Bearer key too, or a Basic key pair only. */
function securityOf(spec: OperationSpec) {
  if (spec.access === 'public') return { security: [] }
  if (spec.access === 'key-pair') return { security: [{ keyPair: [] }] }
  if (spec.apiKeys) return { security: [{ session: [] }, { bearerKey: [] }] }
  return {}
}

function errorResponses(spec: OperationSpec) {
  const $ref = errorSchemaOf[spec.errorEnvelope ?? 'promptfolio']
  const responses: Record<string, unknown> = {}
  for (const code of [...errorCodesOf(spec)].sort((a, b) => errorStatus[a] - errorStatus[b])) {
    const status = String(errorStatus[code])
    const previous = responses[status] as { description: string } | undefined
    responses[status] = {
      description: previous ? `${previous.description}, \`${code}\`` : `\`${code}\``,
      content: { 'application/json': { schema: { $ref } } },
    }
  }
  return responses
}

/** Output view of a schema: what the server answers. */
function outputSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' })
  return rest
}

function toOpenApiOperation(tag: string, operation: Operation) {
  const { spec } = operation
  const pathSchemas = spec.params
    ? (inputSchema(spec.params) as { properties?: Record<string, JsonSchema> })
    : {}
  const parameters = [
    ...[...spec.path.matchAll(pathParameter)].map(([, name]) => ({
      name,
      in: 'path',
      required: true,
      schema: pathSchemas.properties?.[name!] ?? { type: 'string' },
    })),
    ...(spec.query ? queryParameters(spec.query) : []),
  ]
  const status = successStatus(spec)
  return {
    operationId: operation.id,
    tags: [tag],
    summary: spec.summary,
    ...(description(spec) && { description: description(spec) }),
    ...securityOf(spec),
    ...(parameters.length > 0 && { parameters }),
    ...(spec.body && {
      requestBody: {
        required: true,
        content: { 'application/json': { schema: inputSchema(spec.body) } },
      },
    }),
    responses: {
      [String(status)]:
        spec.response === null
          ? { description: 'No content' }
          : { description: 'OK', content: { 'application/json': { schema: outputSchema(spec.response) } } },
      ...errorResponses(spec),
    },
  }
}

export interface DocumentedGroup {
  $group: OperationGroup & { name: string }
}

/** The OpenAPI 3.1 document of `/api`, served at `/api/v1/openapi.json`. */
export function openApiDocument(groups: DocumentedGroup[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const group of groups) {
    for (const operation of operationsOf(group as unknown as Record<string, unknown>)) {
      const path = `/api${operation.spec.path.replace(pathParameter, '{$1}')}`
      paths[path] ??= {}
      paths[path][operation.spec.method.toLowerCase()] = toOpenApiOperation(group.$group.title, operation)
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
        '`Origin` for every state-changing request. Error messages follow `Accept-Language` (en, de). ' +
        'The prompt operations also take a personal API key (`Authorization: Bearer sk-pf-…`); the ' +
        'Langfuse-compatible prompt API under `/api/public` takes an API key pair in Basic auth and ' +
        "answers Langfuse's error shape.",
    },
    tags: groups.map(({ $group }) => ({ name: $group.title, description: $group.description })),
    security: [{ session: [] }],
    paths,
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: 'promptfolio.session_token' },
        bearerKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API key (`sk-pf-…`), acting as its owner; a read-only key only reads',
        },
        keyPair: {
          type: 'http',
          scheme: 'basic',
          description:
            "Langfuse's authentication: an API key's public key (`pk-pf-…`) as the user name and its " +
            'secret key (`sk-pf-…`) as the password; the key’s space (its owner’s or its team’s) is the project',
        },
      },
      schemas: {
        LangfuseError: {
          type: 'object',
          required: ['message', 'error'],
          description: "Langfuse's error shape, for the Langfuse prompt API",
          properties: {
            message: { type: 'string', description: "In Langfuse's words where its clients read them" },
            error: {
              description:
                "Langfuse's error name (`InvalidRequestError`, `UnauthorizedError`, `LangfuseNotFoundError`, …), " +
                "or a validation's issues (`{path, message}`) with `message: 'Invalid request data'`",
              oneOf: [
                { type: 'string' },
                {
                  type: 'array',
                  items: {
                    type: 'object',
                    properties: { path: { type: 'array' }, message: { type: 'string' } },
                  },
                },
              ],
            },
          },
        },
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
                planLimit: {
                  type: 'object',
                  description: 'With plan_limit: what the plan refused',
                  required: ['context', 'reason', 'resource', 'used', 'max'],
                  properties: {
                    context: { type: 'string', enum: ['personal', 'team'] },
                    reason: {
                      type: 'string',
                      enum: ['payment_required', 'limit_reached', 'feature_not_available'],
                    },
                    resource: { type: 'string', enum: ['prompts', 'team_members', 'api_access', 'webhooks'] },
                    used: { type: ['integer', 'null'] },
                    max: { type: ['integer', 'null'] },
                  },
                },
              },
            },
          },
        },
      },
    },
  }
}
