import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TestClient } from '../../testing/client.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'

let testApp: TestApp
beforeAll(async () => {
  testApp = await createTestApp()
})
afterAll(() => testApp.close())

describe('GET /api/health', () => {
  it('reports the database kind, its round-trip latency and the app version', async () => {
    const res = await new TestClient(testApp).get<{
      status: string
      version: string
      database: { kind: string; latencyMs: number }
    }>('/api/health')
    expect(res.status).toBe(200)
    expect(res.body.status).toBe('ok')
    expect(res.body.database.kind).toBe(process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite')
    expect(res.body.database.latencyMs).toBeGreaterThanOrEqual(0)
    expect(res.body.version).toMatch(/^\d+\.\d+\.\d+/)
  })

  it('answers 503 transient when the database is unreachable', async () => {
    const broken = await createTestApp()
    await broken.database.close()
    const res = await new TestClient(broken).get<{ error: { code: string } }>('/api/health')
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('transient')
    await broken.close().catch(() => {})
  })
})
