// The process `startBareHttpServer` spawns for a Hono floor (see there); its replies come over IPC.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import pg from 'pg'
import type { BareSetup } from './bare-http.ts'
import { replay } from './replay.ts'

// An exit, not death by the signal: a profile (`--cpu-prof` in BENCH_BARE_FLAGS) is written at exit.
process.once('SIGTERM', () => process.exit(0))

process.once('message', ({ replies, databaseUrl, poolSize }: BareSetup) => {
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: poolSize }) : null
  // Each answer's JSON as a value, serialized anew on every request as any JSON API does; a body
  // that would not come out byte for byte the same is refused, so the floor sends the app's bytes.
  const values = new Map<string, unknown>()
  for (const [path, { answer }] of Object.entries(replies)) {
    const value = JSON.parse(answer.body) as unknown
    if (JSON.stringify(value) !== answer.body) throw new Error(`${path}: its body is not JSON.stringify's`)
    values.set(path, value)
  }
  const app = new Hono()
  app.get('*', async (c) => {
    const url = c.req.url
    const path = url.slice(url.indexOf('/', url.indexOf('//') + 2))
    const reply = replies[path]
    if (!reply) return new Response(`no reply for ${path}`, { status: 500 })
    if (reply.statements?.length) await replay(pool!, reply.statements)
    const { status, headers } = reply.answer
    // What the app's JSON answers are too: a Response with a plain header record, which the Node
    // adapter writes without building Fetch Headers.
    return new Response(JSON.stringify(values.get(path)), {
      status,
      headers: headers as Record<string, string>,
    })
  })
  serve({ fetch: app.fetch, port: Number(process.env.PORT), hostname: '127.0.0.1' }, () =>
    process.send!('listening'),
  )
})
