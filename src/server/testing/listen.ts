import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { serveApp } from '../http/node-server.ts'
import type { TestApp } from './test-app.ts'

/**
 * The test app on a free port of the loopback, served as main.ts serves it (`serveApp`): the
 * kept-fetch lane ahead of Hono (`lane: false`: a lane that leaves every request, so Hono alone
 * answers).
 * `answeredByLane` counts the requests the lane answered (of requests sent together, it cannot
 * say which).
 */
export async function listen(testApp: TestApp, { lane = true } = {}) {
  let answeredByLane = 0
  const server = serveApp({
    fetch: testApp.app.fetch,
    port: 0,
    host: '127.0.0.1',
    lane: (req, res) => {
      const taken = lane ? testApp.keptFetch(req, res) : false
      if (taken === false) return false
      return taken.then((answered) => {
        if (answered) answeredByLane++
        return answered
      })
    },
  })
  await once(server, 'listening')
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get answeredByLane() {
      return answeredByLane
    },
    close: () => {
      // Clients keep their connections alive: close them, or the close waits for their timeout.
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
