import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { serve } from '@hono/node-server'
import { serverWithLane } from '../http/node-server.ts'
import type { TestApp } from './test-app.ts'

/**
 * The test app on a real port, served as main.ts serves it: the kept-fetch lane ahead of Hono
 * (`lane: false` for Hono alone). `answeredByLane` counts the requests the lane answered.
 */
export async function listen(testApp: TestApp, { lane = true } = {}) {
  let answeredByLane = 0
  const keptFetch = serverWithLane((req, res) => {
    const taken = testApp.app.keptFetch(req, res)
    if (taken === false) return false
    return taken.then((answered) => {
      if (answered) answeredByLane++
      return answered
    })
  })
  const server = serve({
    fetch: testApp.app.fetch,
    port: 0,
    hostname: '127.0.0.1',
    ...(lane && { createServer: keptFetch }),
  })
  await once(server, 'listening')
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get answeredByLane() {
      return answeredByLane
    },
    close: () => {
      // Clients keep their connections alive: close them, or the close waits for their timeout.
      ;(server as unknown as { closeAllConnections(): void }).closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
