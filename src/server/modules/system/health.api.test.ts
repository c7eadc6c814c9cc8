import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest'
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

  it('answers while a transaction holds the database, without queueing behind it', async () => {
    // The embedded database has one connection: a probe that queued would wait for the release
    // below, which comes only after health answered (the test then fails by its timeout).
    let release = () => {}
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    onTestFinished(() => release())
    let inside = () => {}
    const entered = new Promise<void>((resolve) => {
      inside = resolve
    })
    const transaction = testApp.database.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`)
      inside()
      await held
    })
    await entered
    const res = await new TestClient(testApp).get<{ database: { latencyMs: number } }>('/api/health')
    release()
    await transaction
    expect(res.status).toBe(200)
    expect(res.body.database.latencyMs).toBeGreaterThanOrEqual(0)
  })

  it('answers 503 transient when the database is unreachable', async () => {
    const broken = await createTestApp()
    await broken.database.close()
    const res = await new TestClient(broken).get<{ error: { code: string } }>('/api/health')
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('transient')
    await broken.close()
  })
})
