import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'
import { parse } from 'yaml'

/**
 * Langfuse's OpenAPI document for prompts (langfuse-prompts.openapi.yml) as a judge of answers:
 * whether a status is one the operation documents, and whether the body has the documented shape.
 * The document is OpenAPI 3.0, whose schemas are not quite JSON Schema: `nullable` is turned into
 * a `null` alternative and `#/components/schemas/X` into `#/$defs/X`; everything else is kept.
 */
type Schema = Record<string, unknown>
interface Operation {
  operationId: string
  parameters?: { name: string; in: string }[]
  responses: Record<string, { content?: { 'application/json'?: { schema: Schema } } }>
}

const document = parse(
  readFileSync(path.join(import.meta.dirname, 'langfuse-prompts.openapi.yml'), 'utf8'),
) as {
  paths: Record<string, Record<string, Operation>>
  components: { schemas: Record<string, Schema> }
}

function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema)
  if (!value || typeof value !== 'object') return value
  const { nullable, ...rest } = value as Schema
  const schema = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, toJsonSchema(inner)]))
  if (typeof schema.$ref === 'string') schema.$ref = schema.$ref.replace('#/components/schemas/', '#/$defs/')
  if (nullable !== true) return schema
  if (typeof schema.$ref === 'string') {
    const { $ref, ...annotations } = schema
    return { ...annotations, anyOf: [{ $ref }, { type: 'null' }] }
  }
  // Without a type, a schema already admits null.
  if (typeof schema.type !== 'string') return schema
  return {
    ...schema,
    type: [schema.type, 'null'],
    ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}),
  }
}

// ajv-formats is CommonJS: its function is the default export's `default` under Node's ESM loader.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv
const ajv = addFormats(new Ajv({ allErrors: true, strict: true }))
const $defs = toJsonSchema(document.components.schemas) as Record<string, Schema>

const operations = new Map<string, Operation>()
for (const methods of Object.values(document.paths)) {
  for (const operation of Object.values(methods)) operations.set(operation.operationId, operation)
}
const validators = new Map<string, ValidateFunction>()

/** The operation ids of the document's prompt operations, to check that a test calls each. */
export const documentedOperations = [...operations.keys()].sort()

/**
 * The answer's problems against the document (none: an empty list): its status is not one the
 * operation lists, or its JSON body does not match the schema given for that status.
 * `documentedAs`: the documented status to judge the body by, when the server answers with
 * another success status than the document names (see the create call in the test).
 */
export function undocumented(
  operationId: string,
  answer: { status: number; body: unknown },
  documentedAs = answer.status,
): string[] {
  const operation = operations.get(operationId)
  if (!operation) return [`no operation ${operationId} in the document`]
  const response = operation.responses[String(documentedAs)]
  if (!response) {
    return [`${operationId} documents ${Object.keys(operation.responses).join(', ')}, not ${documentedAs}`]
  }
  const schema = response.content?.['application/json']?.schema
  if (!schema) return answer.body == null || answer.body === '' ? [] : ['a body where the document has none']
  const key = `${operationId} ${documentedAs}`
  let validate = validators.get(key)
  if (!validate) {
    validate = ajv.compile({ ...(toJsonSchema(schema) as Schema), $defs })
    validators.set(key, validate)
  }
  if (validate(answer.body)) return []
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`)
}

/**
 * Each prompt operation of the document as a route: its method, its path with the parameters'
 * names left out (`/api/public/v2/prompts/{}`), and its query parameters.
 */
export const documentedRoutes = Object.entries(document.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${path.replace(/\{\w+\}/g, '{}')}`,
      query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    })),
  )
  .sort((a, b) => a.route.localeCompare(b.route))
