import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import type { TestProject } from 'vitest/node'
import { pgliteTemplate } from '../db/client.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The archive of a migrated embedded database that every test app of this run starts from. */
    pgliteTemplatePath: string
  }
}

/**
 * Once per run of the PGlite API tests: a migrated embedded database, archived to a file, so that
 * each test app copies it (about 0.5 s) instead of running initdb and every migration (about 2.5 s).
 * Built from this checkout's migrations at every run, so it is never stale.
 */
export default async function setup(project: TestProject) {
  const file = path.resolve(`.tmp/pglite-template-${process.pid}.tar`)
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, Buffer.from(await (await pgliteTemplate()).arrayBuffer()))
  project.provide('pgliteTemplatePath', file)
  return () => rmSync(file, { force: true })
}
