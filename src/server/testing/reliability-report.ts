import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The reliability suites' figures (cells checked, leaks, fuzz requests, 5xx answers): printed as
 * one line and written to `.tmp/reliability/<suite>-<database>.json` for `npm run test:reliability`
 * to sum up.
 */
export function reportFigures(suite: string, figures: Record<string, number | string>): void {
  const database = process.env.TEST_DB ?? 'pglite'
  const line = Object.entries(figures)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')
  process.stdout.write(`[reliability] ${suite} (${database}): ${line}\n`)
  const dir = join(process.cwd(), '.tmp', 'reliability')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, `${suite}-${database}.json`), JSON.stringify({ suite, database, ...figures }))
}
