import { drizzle } from 'drizzle-orm/node-postgres'
import pg from 'pg'
import { createApp } from '../../src/server/app.ts'
import { createAuth } from '../../src/server/auth/auth.ts'
import type { Config } from '../../src/server/config.ts'
import type { Database, Db } from '../../src/server/db/client.ts'
import * as schema from '../../src/server/db/schema/index.ts'
import { createLogger } from '../../src/server/log.ts'
import { RECORDER_CONNECTIONS } from './connections.ts'
import type { Statement } from './replay.ts'

export type SqlRecorder = Awaited<ReturnType<typeof sqlRecorder>>

/**
 * The app in-process on a database that records every statement it runs, so a benchmark can
 * replay exactly the SQL of one API request without HTTP in between.
 */
export async function sqlRecorder(config: Config, url: string) {
  const pool = new pg.Pool({ connectionString: url, max: RECORDER_CONNECTIONS - 1 })
  const listeners: pg.Client[] = []
  let recording: Statement[] | null = null
  let running = 0
  // Read where drizzle hands each statement to the driver: its logger sees neither the name nor the row mode.
  const query = pool.query.bind(pool) as (config: unknown, values?: unknown[]) => Promise<unknown>
  pool.query = ((
    config: string | { text: string; name?: string; rowMode?: string; types?: object },
    values?: unknown[],
  ) => {
    const { text, name, rowMode, types } = typeof config === 'string' ? { text: config } : config
    recording?.push({
      text,
      values: values ?? [],
      ...(name && { name }),
      ...(rowMode === 'array' && { rowMode }),
      // Only drizzle passes parsers of its own here.
      ...(types && { datesAsText: true }),
      ...(running > 0 && { alongside: true }),
    })
    running += 1
    return query(config, values).finally(() => {
      running -= 1
    })
  }) as typeof pool.query
  const db = drizzle(pool, { schema }) as unknown as Db
  const database: Database = {
    db,
    reader: db,
    replicas: null,
    kind: 'postgres',
    ping: async () => 0,
    migrate: async () => [],
    // The runtime cache's only (no mail worker runs here): a cache that hears nothing stops
    // serving after a few seconds, and the warm request would then read the session again.
    listen: async (channel, onNotify) => {
      const client = new pg.Client({ connectionString: url })
      listeners.push(client)
      await client.connect()
      client.on('notification', (message) => onNotify(message.payload ?? ''))
      await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`)
      return () => client.end()
    },
    close: async () => {
      await Promise.all(listeners.map((client) => client.end().catch(() => {})))
      await pool.end()
    },
  }
  const log = createLogger('silent')
  const { app } = createApp({ config, database, auth: createAuth({ config, db, log }), log })
  return {
    /**
     * The statements one GET request runs (signed in by cookie, or by other headers such as a key)
     * once the server is warm: the request is made twice and the second one recorded, as a session
     * is read from the database on its first request only and then kept (decision 0286).
     */
    async statementsOf(
      path: string,
      cookie: string,
      headers: Record<string, string> = {},
    ): Promise<Statement[]> {
      const init = { headers: { ...(cookie && { cookie }), ...headers } }
      await (await app.request(path, init)).arrayBuffer()
      recording = []
      const res = await app.request(path, init)
      const statements = recording
      recording = null
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`)
      return statements
    },
    close: () => database.close(),
  }
}
