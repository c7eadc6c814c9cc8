import { expect } from 'vitest'
import type { CreatedApiKey } from '../../../../domain/api-keys.ts'
import { keyPairAuthorization, TestClient } from '../../../testing/client.ts'
import type { TestApp } from '../../../testing/test-app.ts'

/**
 * Langfuse's test setup (a fresh organisation, project and key per case, prompts seeded with
 * prisma) as our API gives it: a user who signs up, a key made with the API, prompts created
 * through POST /api/public/v2/prompts. A case that wants a project of its own gets a new user.
 */
export interface Project {
  key: CreatedApiKey
  auth: string
  call: <T = Record<string, unknown>>(
    method: string,
    path: string,
    body?: unknown,
    auth?: string,
  ) => Promise<{ status: number; body: T }>
  /** Creates a version through the API and requires the 201. */
  create: (input: Record<string, unknown>) => Promise<Record<string, unknown>>
}

export async function newProject(testApp: TestApp): Promise<Project> {
  const user = new TestClient(testApp)
  await user.signUp()
  const key = (await user.post<CreatedApiKey>('/api/v1/api-keys', { name: 'parity', scope: 'read_write' }))
    .body
  const auth = keyPairAuthorization(key)
  const call: Project['call'] = async (method, path, body, as = auth) => {
    const res = await new TestClient(testApp).request(method, path, { body, headers: { Authorization: as } })
    return { status: res.status, body: res.body as never }
  }
  const create = async (input: Record<string, unknown>) => {
    const res = await call('POST', '/api/public/v2/prompts', input)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    return res.body
  }
  return { key, auth, call, create }
}

let counter = 0
/** A name no other case of the file uses (Langfuse's cases add a nanoid). */
export const unique = (prefix: string) => `${prefix}${++counter}x${Date.now().toString(36)}`

/** The Langfuse prompt fields a case compares (Langfuse's `testPromptEquality`). */
export function expectPrompt(
  body: Record<string, unknown>,
  expected: {
    name: string
    prompt: unknown
    version: number
    labels: string[]
    config?: unknown
    type?: string
  },
) {
  expect(body.name).toBe(expected.name)
  expect(body.prompt).toEqual(expected.prompt)
  expect(body.type).toBe(expected.type ?? 'text')
  expect(body.version).toBe(expected.version)
  expect(body.labels).toEqual(expected.labels)
  expect(body.createdBy).toBe('API')
  expect(body.config).toEqual(expected.config ?? {})
  expect(body.tags).toEqual([])
  expect(body.resolutionGraph).toBeNull()
}

export const tag = (name: string, selector: string) => `@@@langfusePrompt:name=${name}|${selector}@@@`
