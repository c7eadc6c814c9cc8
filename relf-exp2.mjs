import { PGlite } from '@electric-sql/pglite'
import { writeFileSync, rmSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
const db = await PGlite.create({ dataDir: '/tmp/relf-ro/x' })
await db.exec('create table t (b text)')
try { writeFileSync('/tmp/relf-ro/filler', Buffer.alloc(400 * 1024 * 1024)) } catch {}
let n = 0
for (let i = 0; i < 100; i++) {
  try { await db.query('insert into t values ($1)', [randomBytes(29000).toString('base64')]) } catch (e) { if (n++ < 2) console.log(e.code, e.message, e.severity) }
}
console.log('failed', n)
rmSync('/tmp/relf-ro/filler')
await db.query('insert into t values ($1)', ['ok'])
console.log((await db.query('select count(*) from t')).rows)
await db.close()
