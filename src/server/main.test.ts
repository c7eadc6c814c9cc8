import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { authOperations } from '../domain/api/auth.ts'
import { httpTarget, TestClient } from './testing/client.ts'
import { freePort, startServerProcess } from './testing/server-process.ts'

// The server's entry point as a real process on the embedded database (`npm start` runs the same
// code bundled). Checks that data survives a restart and that SIGTERM shuts down cleanly.
const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-main-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const start = (port: number) => startServerProcess({ DATA_DIR: dataDir }, { port })

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe('the server process', () => {
  it('keeps its data across a restart and exits cleanly on SIGTERM', async () => {
    const port = await freePort()
    const base = `http://localhost:${port}`
    const password = 'correct horse battery staple'

    const first = await start(port)
    const health = await fetch(`${base}/api/health`).then((r) => r.json())
    expect(health.database.kind).toBe('pglite')
    const signUp = await new TestClient(httpTarget(base)).call(authOperations.signUp, {
      body: { email: 'keeper@example.com', password, confirmPassword: password, acceptTerms: true },
    })
    expect(signUp.status).toBe(201)
    expect(await first.stop()).toBe(0)
    expect(first.output()).toContain('"msg":"shutting down"')
    // The start says where its time went, phase by phase (what bench:startup breaks down).
    expect(first.output()).toMatch(
      /"msg":"listening".*"phasesMs":\{"modules":\d+,"database":\d+,"migrations":\d+,"services":\d+,"app":\d+,"listen":\d+\}/,
    )
    // Without ADMIN_EMAIL the start says loudly who becomes (or is) the global admin.
    expect(first.output()).toContain(
      '!!! ADMIN_EMAIL is not set: the FIRST ACCOUNT TO SIGN UP becomes the global admin',
    )

    const second = await start(port)
    const signIn = await new TestClient(httpTarget(base)).call(authOperations.signIn, {
      body: { email: 'keeper@example.com', password },
    })
    expect(signIn.status).toBe(200)
    expect(signIn.body.user.globalRole).toBe('global_admin')
    expect(second.output()).not.toContain('migrations applied')
    expect(second.output()).toContain('the first account (keeper@example.com) is this installation')
    expect(await second.stop()).toBe(0)
    // Two cold starts of the real process: generous on a loaded machine, and not a timing assertion.
  }, 120_000)

  it('answers a request that is in flight at SIGTERM, then closes its kept-alive connection and exits', async () => {
    const port = await freePort()
    const server = await start(port)
    const exited = new Promise<number | null>((resolve) => server.child.on('exit', (code) => resolve(code)))
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the right password' })
    // A browser-like client: keeps the connection alive, and sends the body only once the server has
    // the request (`100 Continue`), so the request is surely in flight when the signal arrives.
    const req = http.request({
      host: '127.0.0.1',
      port,
      path: '/api/v1/auth/sign-in',
      method: 'POST',
      agent: new http.Agent({ keepAlive: true }),
      headers: {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(body),
        Origin: `http://localhost:${port}`,
        Expect: '100-continue',
      },
    })
    const socketClosed = new Promise((resolve) => req.on('socket', (socket) => socket.on('close', resolve)))
    const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
      req.on('response', (res) => {
        res.resume()
        res.on('end', () => resolve(res))
      })
      req.on('error', reject)
    })
    await new Promise((resolve) => req.once('continue', resolve))

    server.child.kill('SIGTERM')
    await until(() => server.output().includes('"msg":"shutting down"'))
    req.end(body)
    const response = await answered
    expect(response.statusCode).toBe(401)
    // The server closes the kept-alive connection with this answer rather than keeping it open.
    expect(response.headers.connection).toBe('close')
    await socketClosed
    expect(await exited).toBe(0)
  }, 60_000)
})
