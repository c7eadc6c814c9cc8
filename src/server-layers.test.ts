import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'

// scripts/check-server-layers.mjs, which `npm run lint` runs: the direction of the server's imports.
interface CrossUnitImport {
  file: string
  target: string
  from: string
  to: string
}
const script = pathToFileURL(path.resolve(import.meta.dirname, '../scripts/check-server-layers.mjs')).href
const { crossUnitImports, problemsOf } = (await import(script)) as {
  crossUnitImports: (root: string) => CrossUnitImport[]
  problemsOf: (imports: CrossUnitImport[]) => string[]
}

const edge = (file: string, target: string): CrossUnitImport => {
  const unit = (p: string) => {
    const parts = p.split('/')
    return parts[0] === 'modules'
      ? `modules/${parts[1]}`
      : parts.length === 1
        ? parts[0]!.replace(/\.ts$/, '')
        : parts[0]!
  }
  return { file, target, from: unit(file), to: unit(target) }
}

describe('the server layers check', () => {
  it('passes the server as it is', () => {
    expect(problemsOf(crossUnitImports(path.resolve(import.meta.dirname, 'server')))).toEqual([])
  })

  it('refuses a lower layer importing a higher one', () => {
    expect(problemsOf([edge('core/audit.ts', 'modules/teams/index.ts')])).toEqual([
      'core/audit.ts imports modules/teams/index.ts: core is below modules/teams',
    ])
  })

  it('refuses a feature reaching past another feature’s index.ts', () => {
    expect(problemsOf([edge('modules/models/run.ts', 'modules/prompts/compile.ts')])).toEqual([
      'modules/models/run.ts imports modules/prompts/compile.ts: another feature is reached through its index.ts',
    ])
  })

  it('refuses features that import each other, even through their index.ts', () => {
    expect(
      problemsOf([
        edge('modules/prompts/service.ts', 'modules/webhooks/index.ts'),
        edge('modules/webhooks/service.ts', 'modules/teams/index.ts'),
        edge('modules/teams/service.ts', 'modules/prompts/index.ts'),
      ]),
    ).toEqual(['these import each other in a loop: modules/prompts, modules/teams, modules/webhooks'])
  })

  it('refuses a folder that has no layer', () => {
    expect(problemsOf([edge('plugins/x.ts', 'db/client.ts')])).toEqual([
      'plugins/x.ts: plugins has no layer in scripts/check-server-layers.mjs',
    ])
  })
})
