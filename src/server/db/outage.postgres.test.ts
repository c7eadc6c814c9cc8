import { createServer, type Server, Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { accountOperations } from '../../domain/api/account.ts'
import { promptOperations } from '../../domain/api/prompts.ts'
import { errorOf, TestClient, uniqueEmail } from '../testing/client.ts'
import { createTestApp, type TestApp } from '../testing/test-app.ts'

/**
 * A TCP relay between the app and PostgreSQL that can cut the line: while it is cut, every open
 * connection is dropped and every new one is hung up on, as when the database host goes away.
 */
class Relay {
  private readonly sockets = new Set<Socket>()
  private cut = false
  private server!: Server
  port = 0

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      if (this.cut) return void client.destroy()
      const upstream = new Socket().connect(this.target.port, this.target.host)
      for (const socket of [client, upstream]) {
        this.sockets.add(socket)
        socket.on('close', () => this.sockets.delete(socket))
        socket.on('error', () => {})
      }
      client.pipe(upstream).pipe(client)
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.port = (this.server.address() as { port: number }).port
  }

  setCut(cut: boolean): void {
    this.cut = cut
    if (cut) for (const socket of this.sockets) socket.destroy()
  }

  close(): Promise<void> {
    this.setCut(true)
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

const realUrl = process.env.TEST_DATABASE_URL ?? ''
let relay: Relay
let testApp: TestApp

beforeAll(async () => {
  const url = new URL(realUrl)
  relay = new Relay({ host: url.hostname, port: Number(url.port || 5432) })
  await relay.start()
  url.hostname = '127.0.0.1'
  url.port = String(relay.port)
  testApp = await createTestApp({}, { databaseUrl: url.toString() })
})

afterAll(async () => {
  relay.setCut(false)
  await testApp.close()
  await relay.close()
})

describe('the database going away and coming back', () => {
  it('answers 503 with Retry-After while it is unreachable and recovers without a restart', async () => {
    const email = uniqueEmail('outage')
    const user = new TestClient(testApp)
    await user.signUp(email)
    expect((await user.call(promptOperations.create, { body: { title: 'Kept', body: 'Body' } })).status).toBe(
      201,
    )

    const leaving = new TestClient(testApp)
    await leaving.signUp()

    relay.setCut(true)
    const stranger = new TestClient(testApp)
    const during = [
      await user.call(promptOperations.list, {}),
      await user.call(promptOperations.create, { body: { title: 'Lost', body: 'Body' } }),
      await stranger.signIn(email),
      await leaving.post('/api/auth/sign-out'),
      await user.call(accountOperations.me, {}),
      await stranger.get('/api/health'),
    ]
    for (const res of during) {
      expect(res.status).toBe(503)
      expect(errorOf(res).code).toBe('transient')
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
    }

    relay.setCut(false)
    const list = await user.call(promptOperations.list, {})
    expect(list.status).toBe(200)
    expect(list.body.items.map((prompt) => prompt.title)).toEqual(['Kept'])
    expect((await stranger.signIn(email)).status).toBe(200)
    // The sign-out that could not reach the database did not end the session; a retry does.
    expect((await leaving.post('/api/auth/sign-out')).status).toBe(200)
    expect((await leaving.call(accountOperations.me, {})).status).toBe(401)
  })
})
