// The process `startBareHttpServer` spawns (see there); it gets its replies over the IPC channel.
import http from 'node:http'
import pg from 'pg'
import type { BareSetup } from './bare-http.ts'
import { replay } from './replay.ts'

// An exit, not death by the signal: a profile (`--cpu-prof` in BENCH_BARE_FLAGS) is written at exit.
process.once('SIGTERM', () => process.exit(0))

process.once('message', ({ replies, databaseUrl, poolSize }: BareSetup) => {
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: poolSize }) : null
  http
    .createServer((request, response) => {
      const reply = replies[request.url ?? '']
      if (!reply) {
        response.writeHead(500).end(`no reply for ${request.url}`)
        return
      }
      const { status, headers, body } = reply.answer
      const statements = reply.statements ?? []
      // Without statements, the answer goes out in the same tick, as the fixed-answer floor always did.
      if (statements.length === 0) {
        response.writeHead(status, headers).end(body)
        return
      }
      replay(pool!, statements).then(
        () => response.writeHead(status, headers).end(body),
        (error: Error) => {
          // The measurement refuses the 500; this says why.
          console.error(`bare HTTP server: ${request.url}: ${error.message}`)
          response.writeHead(500).end(error.message)
        },
      )
    })
    .listen(Number(process.env.PORT), '127.0.0.1', () => process.send!('listening'))
})
