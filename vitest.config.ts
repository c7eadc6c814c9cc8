import { defineConfig } from 'vitest/config'

const apiTests = ['src/server/**/*.api.test.ts']
/** Faults only a real PostgreSQL server can show (a dropped connection); api-postgres only. */
const postgresTests = ['src/server/**/*.postgres.test.ts']
/** Start the real server process on the embedded database; run once, with the PGlite API tests. */
const processTests = ['src/server/main.test.ts', 'src/server/**/*.process.test.ts']
/**
 * Real clients (promptfoo, a client generated from Langfuse's OpenAPI document) against a started
 * server, each installed in its own folder by `npm run test:contract` (contract/run.mjs), which
 * runs these projects; not part of the app's dependencies.
 */
const contractTests = ['contract/*/*.contract.test.ts']

/**
 * The API test files of one worker share its process and the modules it imported: the app's whole
 * module graph is loaded once per worker instead of once per file (decision 0274: the suite's
 * summed import time went from 1,194 s to 76 s, its CPU time from 851 s to 499 s).
 * file-boundary.setup.ts undoes what a file leaves behind for the next one (an open test app, a
 * changed environment variable, a faked clock) and fails that file for the first two.
 */
const sharedApiWorker = {
  isolate: false,
  setupFiles: ['src/server/testing/file-boundary.setup.ts'],
}

/**
 * Some API tests start an app of their own (a fresh database, every migration): under a loaded
 * machine that alone can take tens of seconds, hence the generous per-test time.
 *
 * unit: pure functions (domain, web helpers, the benchmarks' bench/lib). web: the web's components rendered in happy-dom, the
 * server answered by a stub of `fetch` (src/web/testing). api-pglite: the HTTP API on a fresh in-memory PGlite
 * per test file. api-postgres: the same files against PostgreSQL (TEST_DATABASE_URL), each file in
 * its own schema; only when TEST_DATABASE_URL is set. Both start each test app's database from a
 * template migrated once per run (pglite-template.setup.ts, postgres-template.setup.ts).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: [...apiTests, ...postgresTests, ...processTests],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'web',
          include: ['src/web/**/*.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['src/web/testing/setup.ts'],
        },
      },
      {
        test: {
          name: 'api-pglite',
          include: [...apiTests, ...processTests],
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          globalSetup: ['src/server/testing/pglite-template.setup.ts'],
          ...sharedApiWorker,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'contract-pglite',
          include: contractTests,
          environment: 'node',
          env: { TEST_DB: 'pglite' },
          testTimeout: 180_000,
          hookTimeout: 120_000,
        },
      },
      ...(process.env.TEST_DATABASE_URL
        ? [
            {
              test: {
                name: 'api-postgres',
                include: [...apiTests, ...postgresTests],
                environment: 'node',
                env: { TEST_DB: 'postgres' },
                globalSetup: ['src/server/testing/postgres-template.setup.ts'],
                ...sharedApiWorker,
                testTimeout: 60_000,
                hookTimeout: 60_000,
              },
            },
            {
              test: {
                name: 'contract-postgres',
                include: contractTests,
                environment: 'node',
                env: { TEST_DB: 'postgres' },
                testTimeout: 180_000,
                hookTimeout: 120_000,
              },
            },
          ]
        : []),
    ],
    pool: 'forks',
    maxWorkers: 2,
  },
})
