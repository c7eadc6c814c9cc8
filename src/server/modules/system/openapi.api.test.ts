import { afterAll, expect, it } from 'vitest'
import { MCP_PATH } from '../../../domain/mcp-clients.ts'
import { servedRoutes } from '../../http/operation-routes.ts'
import { TestClient } from '../../testing/client.ts'
import { createTestApp } from '../../testing/test-app.ts'

const testApp = await createTestApp()
afterAll(() => testApp.close())

interface Document {
  openapi: string
  info: { version: string }
  paths: Record<string, Record<string, OperationObject>>
}
interface OperationObject {
  security?: unknown[]
  parameters?: { name: string; in: string; required: boolean }[]
  requestBody?: { content: { 'application/json': { schema: JsonSchema } } }
  responses: Record<string, unknown>
}
interface JsonSchema {
  type?: string
  required?: string[]
  properties?: Record<string, JsonSchema & { minLength?: number; maxLength?: number }>
}

const document = (await new TestClient(testApp).get<Document>('/api/v1/openapi.json')).body
const operation = (method: string, path: string) => {
  const found = document.paths[path]?.[method]
  if (!found) throw new Error(`${method} ${path} is not documented`)
  return found
}

it('is an OpenAPI 3.1 document served without a session', () => {
  expect(document.openapi).toBe('3.1.0')
  expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/)
})

it('documents exactly the routes the app serves (the MCP server aside: it speaks JSON-RPC)', () => {
  const served = servedRoutes(testApp.app)
    .filter((route) => route.method !== 'ALL')
    .filter(
      (route) =>
        route.path.startsWith('/api/v1/') ||
        route.path === '/api/health' ||
        (route.path.startsWith('/api/public/') && route.path !== MCP_PATH),
    )
    .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:([A-Za-z]+)/g, '{$1}')}`)
  const documented = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => `${method} ${path}`),
  )
  expect(new Set(documented)).toEqual(new Set(served))
})

it('describes request bodies with the rules the server enforces', () => {
  const signUp = operation('post', '/api/v1/auth/sign-up')
  const schema = signUp.requestBody?.content['application/json'].schema
  expect(schema?.required).toEqual(expect.arrayContaining(['email', 'password', 'acceptTerms']))
  expect(schema?.properties?.password).toMatchObject({ minLength: 12, maxLength: 128 })
  expect(signUp.security).toEqual([])
  expect(Object.keys(signUp.responses)).toEqual(expect.arrayContaining(['201', '400', '429']))
})

it('names path and query parameters, and the errors each operation can answer', () => {
  const list = operation('get', '/api/v1/prompts')
  expect(list.parameters?.map((p) => p.name)).toEqual(
    expect.arrayContaining(['scope', 'search', 'tags', 'cursor']),
  )
  expect(list.security).toEqual([{ session: [] }, { bearerKey: [] }])
  expect(Object.keys(list.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '500']))

  const save = operation('patch', '/api/v1/prompts/{id}')
  expect(save.parameters).toContainEqual({
    name: 'id',
    in: 'path',
    required: true,
    schema: expect.objectContaining({ type: 'string', format: 'uuid' }),
  })
  expect(Object.keys(save.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '413']))

  const outbox = operation('get', '/api/v1/mail-outbox')
  expect(Object.keys(outbox.responses)).toContain('403')
})

it("documents the Langfuse prompt API with its Basic key pair and Langfuse's error shape", () => {
  const fetch = operation('get', '/api/public/v2/prompts/{name}')
  expect(fetch.security).toEqual([{ keyPair: [] }])
  expect(fetch.parameters?.map((p) => p.name)).toEqual(['name', 'version', 'label', 'resolve'])
  expect(fetch.responses['404']).toMatchObject({
    content: { 'application/json': { schema: { $ref: '#/components/schemas/LangfuseError' } } },
  })
  expect(operation('get', '/api/public/v2/prompts').parameters?.map((p) => p.name)).toEqual(
    expect.arrayContaining(['name', 'label', 'tag', 'page', 'limit', 'fromUpdatedAt']),
  )
  for (const [method, path] of [
    ['post', '/api/public/v2/prompts'],
    ['patch', '/api/public/v2/prompts/{name}/versions/{version}'],
    ['delete', '/api/public/v2/prompts/{name}'],
    ['get', '/api/public/prompts'],
    ['post', '/api/public/prompts'],
  ] as const) {
    expect(operation(method, path).security, `${method} ${path}`).toEqual([{ keyPair: [] }])
  }
  // The prompt operations take a Bearer key besides a session; the others a session only.
  expect(operation('get', '/api/v1/prompts/{id}').security).toEqual([{ session: [] }, { bearerKey: [] }])
  expect(operation('get', '/api/v1/teams').security).toBeUndefined()
  const schemes = (document as unknown as { components: { securitySchemes: Record<string, unknown> } })
    .components.securitySchemes
  expect(schemes.keyPair).toMatchObject({ type: 'http', scheme: 'basic' })
})

it('describes the answer of every operation: a JSON schema, or no body for a 204', () => {
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, { responses }] of Object.entries(methods)) {
      const success = Object.entries(responses).find(([status]) => status.startsWith('2'))
      expect(success, `${method} ${path}`).toBeDefined()
      const [status, response] = success as [string, { content?: { 'application/json': { schema: object } } }]
      if (status === '204') expect(response.content, `${method} ${path}`).toBeUndefined()
      else expect(response.content?.['application/json'].schema, `${method} ${path}`).toBeInstanceOf(Object)
    }
  }
})

it("renders the document as browsable docs at /api/docs, within the app's CSP", async () => {
  const client = new TestClient(testApp)
  const page = await client.request<string>('GET', '/api/docs')
  expect(page.status).toBe(200)
  expect(page.headers.get('content-type')).toContain('text/html')
  expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
  expect(page.body).toContain('/api/docs/swagger-ui-bundle.js')
  // Only scripts from files: an inline one would be refused by the CSP.
  expect(page.body).not.toMatch(/<script>/)
  const init = await client.request<string>('GET', '/api/docs/init.js')
  expect(init.body).toContain("url: '/api/v1/openapi.json'")
  const bundle = await client.request<string>('GET', '/api/docs/swagger-ui-bundle.js')
  expect(bundle.status).toBe(200)
  expect(bundle.body.length).toBeGreaterThan(100_000)
  expect((await client.get('/api/docs/nothing.js')).status).toBe(404)
})
