import { PGlite } from '@electric-sql/pglite'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
const db = await PGlite.create({ dataDir: '/tmp/relf-imm/x' })
await db.exec('create table t (b text)')
await db.query('insert into t values ($1)', ['before'])
execFileSync('chattr', ['-R', '+i', '/tmp/relf-imm/x'])
let n = 0
for (let i = 0; i < 100; i++) {
  try { await db.query('insert into t values ($1)', [randomBytes(29000).toString('base64')]) } catch (e) { if (n++ < 3) console.log(i, e.code, e.message, e.severity) }
}

console.log('failed', n)
execFileSync('chattr', ['-R', '-i', '/tmp/relf-imm/x'])
await db.query('insert into t values ($1)', ['ok'])
console.log((await db.query('select count(*) from t')).rows)
await db.close()
const db2 = await PGlite.create({ dataDir: '/tmp/relf-imm/x' })
console.log((await db2.query('select count(*) from t')).rows)
await db2.close()
