import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

/** Keeps a run's figures in `bench/.results/<name>-<time>.json` (git-ignored) and answers the path. */
export function saveResults(name: string, data: unknown): string {
  const file = path.resolve(import.meta.dirname, '../.results', `${name}-${new Date().toISOString()}.json`)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(data, null, 2))
  return file
}
