// `npm run test:reliability`: the full reliability run. The authorization matrix (every operation
// x every kind of caller) and the generated fuzz (FUZZ_RUNS requests, 10,000 unless set) on the
// embedded database, then, with TEST_DATABASE_URL set, the same two, the outage test and two app
// processes behind a round-robin proxy (scale-out) on PostgreSQL. Prints the figures the suites
// wrote to .tmp/reliability/ and fails on any failure.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const figuresDir = path.join(root, '.tmp', 'reliability')
rmSync(figuresDir, { recursive: true, force: true })

const runs = process.env.FUZZ_RUNS ?? '10000'
const files = [
  'src/server/http/authorization-matrix.api.test.ts',
  'src/server/http/api-fuzz-generated.api.test.ts',
]
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs')

function run(project, extraFiles, env) {
  console.log(`\n== ${project}: ${[...files, ...extraFiles].join(' ')} (FUZZ_RUNS=${runs})`)
  const result = spawnSync(process.execPath, [vitest, 'run', '--project', project, ...files, ...extraFiles], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_RUNS: runs, ...env },
  })
  return result.status === 0
}

let ok = run('api-pglite', [], {})
if (process.env.TEST_DATABASE_URL) {
  ok =
    run(
      'api-postgres',
      ['src/server/db/outage.postgres.test.ts', 'src/server/scale-out.postgres.test.ts'],
      {},
    ) && ok
} else {
  console.log('\n== api-postgres skipped: set TEST_DATABASE_URL=postgres://… to run the PostgreSQL half')
}

const figures = existsSync(figuresDir)
  ? readdirSync(figuresDir).map((file) => JSON.parse(readFileSync(path.join(figuresDir, file), 'utf8')))
  : []
console.log('\n== Reliability figures')
for (const { suite, database, ...rest } of figures) {
  const line = Object.entries(rest)
    .map(
      ([name, value]) =>
        `${name} ${typeof value === 'number' && name !== 'seed' ? value.toLocaleString('en') : value}`,
    )
    .join(', ')
  console.log(`${suite} on ${database}: ${line}`)
}
const matrix = figures.filter((f) => f.suite === 'authorization-matrix')
const fuzz = figures.filter((f) => f.suite === 'api-fuzz')
const sum = (list, key) => list.reduce((total, f) => total + (f[key] ?? 0), 0)
console.log(
  `Total: ${sum(matrix, 'cells')} matrix cells, ${sum(matrix, 'leaks')} leaks; ` +
    `${sum(fuzz, 'requests')} fuzz requests, ${sum(fuzz, 'serverErrors')} 5xx, ` +
    `${sum(fuzz, 'badShape')} errors out of shape, ${sum(fuzz, 'refusedChanges')} refused requests that changed the database`,
)
const clean =
  matrix.length > 0 &&
  fuzz.length > 0 &&
  sum(matrix, 'leaks') === 0 &&
  sum(fuzz, 'serverErrors') === 0 &&
  sum(fuzz, 'badShape') === 0 &&
  sum(fuzz, 'refusedChanges') === 0
process.exit(ok && clean ? 0 : 1)
