import { Hono } from 'hono'
import type { AppEnv } from '../../http/env.ts'
import { type ApiTag, openApiDocument } from '../../http/openapi.ts'
import { authApiDoc } from '../auth/api-doc.ts'
import { conversationsApiDoc } from '../conversations/api-doc.ts'
import { mailApiDoc } from '../mail/api-doc.ts'
import { profileApiDoc } from '../profile/api-doc.ts'
import { promptsApiDoc } from '../prompts/api-doc.ts'
import { teamsApiDoc } from '../teams/api-doc.ts'

const systemApiDoc: ApiTag = {
  name: 'System',
  description: 'Health and this document.',
  operations: [
    {
      method: 'get',
      path: '/health',
      summary: 'The database kind and its round-trip latency, and the app version',
      access: 'public',
      success: { status: 200, description: '`{ status: "ok", version, database: { kind, latencyMs } }`' },
      errors: ['transient'],
    },
    {
      method: 'get',
      path: '/v1/openapi.json',
      summary: 'This OpenAPI document',
      access: 'public',
      success: { status: 200, description: 'OpenAPI 3.1' },
    },
  ],
}

export const apiTags: ApiTag[] = [
  authApiDoc,
  profileApiDoc,
  promptsApiDoc,
  conversationsApiDoc,
  teamsApiDoc,
  mailApiDoc,
  systemApiDoc,
]

/** `/openapi.json`: built on first request, then served from memory. */
export function apiDocumentRoutes(version: string) {
  let document: ReturnType<typeof openApiDocument> | undefined
  return new Hono<AppEnv>().get('/', (c) => {
    document ??= openApiDocument(apiTags, version)
    return c.json(document)
  })
}
