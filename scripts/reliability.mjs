// `npm run test:reliability`: the full reliability run. The authorization matrix (every operation
// x every kind of caller), the malformed-input fuzz's whole matrices (FUZZ_MATRIX=full), the generated fuzz (FUZZ_RUNS requests, 10,000 unless set) and the
// faults (kill -9 under load after CRASH_WRITES acknowledged writes, 1,000 unless set; SMTP down;
// an unwritable DATA_DIR) on the embedded database, then, with TEST_DATABASE_URL set, the same, the
// outage test and two app processes behind a round-robin proxy (scale-out) on PostgreSQL. Prints
// the figures the suites wrote to .tmp/reliability/ and fails on any failure.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const figuresDir = path.join(root, '.tmp', 'reliability')
rmSync(figuresDir, { recursive: true, force: true })

const runs = process.env.FUZZ_RUNS ?? '10000'
const crashWrites = process.env.CRASH_WRITES ?? '1000'
const files = [
  'src/server/http/authorization-matrix.api.test.ts',
  'src/server/http/api-fuzz.api.test.ts',
  'src/server/http/api-fuzz-generated.api.test.ts',
  'src/server/mail/smtp-outage.api.test.ts',
]
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs')

function run(project, extraFiles, env) {
  console.log(`\n== ${project}: ${[...files, ...extraFiles].join(' ')} (FUZZ_RUNS=${runs})`)
  const result = spawnSync(process.execPath, [vitest, 'run', '--project', project, ...files, ...extraFiles], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_RUNS: runs, FUZZ_MATRIX: 'full', CRASH_WRITES: crashWrites, ...env },
  })
  return result.status === 0
}

let ok = run('api-pglite', ['src/server/crash.process.test.ts', 'src/server/data-dir.process.test.ts'], {})
if (process.env.TEST_DATABASE_URL) {
  ok =
    run(
      'api-postgres',
      [
        'src/server/db/outage.postgres.test.ts',
        'src/server/crash.postgres.test.ts',
        'src/server/scale-out.postgres.test.ts',
      ],
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
const crash = figures.filter((f) => f.suite === 'crash')
const sum = (list, key) => list.reduce((total, f) => total + (f[key] ?? 0), 0)
console.log(
  `Total: ${sum(matrix, 'cells')} matrix cells, ${sum(matrix, 'leaks')} leaks; ` +
    `${sum(fuzz, 'requests')} fuzz requests, ${sum(fuzz, 'serverErrors')} 5xx, ` +
    `${sum(fuzz, 'badShape')} errors out of shape, ${sum(fuzz, 'refusedChanges')} refused requests that changed the database; ` +
    `kill -9 after ${crash.map((f) => f.prompts + f.versions + f.messages + f.invitations).join(' and ')} acknowledged writes: ${sum(crash, 'problems')} problems`,
)
const clean =
  matrix.length > 0 &&
  fuzz.length > 0 &&
  sum(matrix, 'leaks') === 0 &&
  sum(fuzz, 'serverErrors') === 0 &&
  sum(fuzz, 'badShape') === 0 &&
  sum(fuzz, 'refusedChanges') === 0 &&
  crash.length > 0 &&
  sum(crash, 'problems') === 0
process.exit(ok && clean ? 0 : 1)
