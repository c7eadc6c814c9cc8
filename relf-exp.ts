import { randomBytes } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { writeFileSync, rmSync } from 'node:fs'
import { httpTarget, TestClient } from './src/server/testing/client.ts'
import { startServerProcess } from './src/server/testing/server-process.ts'
let bad = 0
const mode = process.argv[2]
const dir = mode === 'full' ? '/tmp/relf-ro/data2' : '/tmp/relf-imm/data'
const server = await startServerProcess({ DATA_DIR: dir, LOG_LEVEL: 'info', PLANS: 'off' }, { port: 4351 })
try {
const c = new TestClient(httpTarget(server.base), { origin: server.base })
await c.signUp(`ro${Date.now()}@example.com`)
console.log('create', (await c.post('/api/v1/prompts', { title: 'Before', body: 'B' })).status)
if (mode === 'full') {
  try { writeFileSync('/tmp/relf-ro/filler', Buffer.alloc(400 * 1024 * 1024)) } catch (e) { console.log('filled', String(e)) }
  try { writeFileSync('/tmp/relf-ro/filler2', Buffer.alloc(1024 * 1024)) } catch (e) { console.log('filled2', String(e)) }
} else execFileSync('chattr', ['-R', '+i', dir])
for (let i = 0; i < 200; i++) {
const r = await c.post('/api/v1/prompts', { title: 'During'+i, body: randomBytes(29000).toString('base64') }).catch((e) => ({ status: String(e), body: null }))
if ((r.status !== 201 && bad++ < 5) || i % 50 === 0) console.log('create bad', i, r.status, JSON.stringify(r.body))
}
const g = await c.get('/api/v1/prompts').catch((e) => ({ status: String(e), body: null }))
console.log('list bad', g.status)
const h = await fetch(`${server.base}/api/health`).then(async (x) => [x.status, await x.text()]).catch((e) => String(e))
console.log('health bad', h)
if (mode === 'full') { rmSync('/tmp/relf-ro/filler', {force:true}); rmSync('/tmp/relf-ro/filler2', {force:true}) } else execFileSync('chattr', ['-R', '-i', dir])
const r2 = await c.post('/api/v1/prompts', { title: 'After', body: 'A' }).catch((e) => ({ status: String(e), body: null }))
console.log('create ok', r2.status, JSON.stringify(r2.body).slice(0, 100))
const g2 = await c.get<{items:{title:string}[]}>('/api/v1/prompts').catch((e) => ({ status: String(e), body: null }))
console.log('list ok', g2.status, JSON.stringify(g2.body?.items?.map(i=>i.title)))
} finally {
console.log('exit', await server.stop())
console.log(server.output().split('\n').filter((l) => !l.includes('"request"')).slice(-12).join('\n').slice(-4000))
}
