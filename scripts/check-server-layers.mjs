#!/usr/bin/env node
/**
 * Keeps the direction of the server's imports (docs/conventions.md, "Server layers"), which Biome cannot:
 * it sees files, not folders. Each folder of `src/server` (each feature under `modules/`, each
 * file at its top) is a unit in a layer; a unit imports only units of lower layers, features
 * import each other without a loop, and a feature reaches another only through its `index.ts`.
 * Tests and their helpers (`testing/`, `*.test.ts`, `test-fixtures.ts`, `harness.ts`) are outside it.
 * Run by `npm run lint`; exits 1 and names each import that breaks it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const SERVER = 'src/server'

/** Bottom to top. A unit not named here is refused, so a new folder gets a place on purpose. */
const LAYERS = [
  ['config', 'garbage', 'log', 'stack-trace', 'trust-proxy', 'scoped-context'],
  ['db', 'cache', 'jobs', 'mail', 'rate-limit'],
  ['core'],
  ['http'],
  ['auth'],
  ['modules/*'],
  ['app', 'main'],
]

const isTestFile = (file) =>
  /\.test\.tsx?$/.test(file) ||
  /(^|[/\\])(test-fixtures|harness)\.ts$/.test(file) ||
  file.split(path.sep).includes('testing')

/** `modules/prompts`, `http`, `config`... for a file under src/server. */
export function unitOf(relative) {
  const parts = relative.split(path.sep)
  if (parts[0] === 'modules') return `modules/${parts[1]}`
  if (parts.length === 1) return parts[0].replace(/\.tsx?$/, '')
  return parts[0]
}

export function layerOf(unit) {
  const index = LAYERS.findIndex(
    (layer) => layer.includes(unit) || (unit.startsWith('modules/') && layer.includes('modules/*')),
  )
  return index === -1 ? null : index
}

/** Every .ts and .tsx file below `dir` (scripts/check-web-features.mjs walks src/web with it too). */
export function sourceFiles(dir) {
  const out = []
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) out.push(...sourceFiles(full))
    else if (/\.tsx?$/.test(name)) out.push(full)
  }
  return out
}

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/** Every import between units of `root` (a server folder): `{ file, target, from, to }`. */
export function crossUnitImports(root) {
  const imports = []
  for (const file of sourceFiles(root)) {
    const relative = path.relative(root, file)
    if (isTestFile(relative)) continue
    const text = readFileSync(file, 'utf8')
    for (const match of text.matchAll(IMPORT)) {
      const target = path.relative(root, path.resolve(path.dirname(file), match[1] ?? match[2]))
      if (target.startsWith('..')) continue
      const from = unitOf(relative)
      const to = unitOf(target)
      if (from !== to) imports.push({ file: relative, target, from, to })
    }
  }
  return imports
}

/** The loops among units: each strongly connected group of more than one unit. */
export function loopsOf(imports) {
  const next = new Map()
  for (const { from, to } of imports) {
    if (!next.has(from)) next.set(from, new Set())
    next.get(from).add(to)
  }
  let counter = 0
  const index = new Map()
  const low = new Map()
  const stack = []
  const onStack = new Set()
  const loops = []
  const visit = (unit) => {
    index.set(unit, counter)
    low.set(unit, counter)
    counter += 1
    stack.push(unit)
    onStack.add(unit)
    for (const to of next.get(unit) ?? []) {
      if (!index.has(to)) {
        visit(to)
        low.set(unit, Math.min(low.get(unit), low.get(to)))
      } else if (onStack.has(to)) low.set(unit, Math.min(low.get(unit), index.get(to)))
    }
    if (low.get(unit) === index.get(unit)) {
      const group = []
      let member
      do {
        member = stack.pop()
        onStack.delete(member)
        group.push(member)
      } while (member !== unit)
      if (group.length > 1) loops.push(group.sort())
    }
  }
  for (const unit of next.keys()) if (!index.has(unit)) visit(unit)
  return loops
}

/** What breaks the rule, one line each. */
export function problemsOf(imports) {
  const problems = []
  for (const { file, target, from, to } of imports) {
    const fromLayer = layerOf(from)
    const toLayer = layerOf(to)
    if (fromLayer === null) problems.push(`${file}: ${from} has no layer in scripts/check-server-layers.mjs`)
    else if (toLayer === null) problems.push(`${file} imports ${target}: ${to} has no layer`)
    else if (toLayer > fromLayer) problems.push(`${file} imports ${target}: ${from} is below ${to}`)
    else if (toLayer === fromLayer && from.startsWith('modules/') && path.basename(target) !== 'index.ts') {
      problems.push(`${file} imports ${target}: another feature is reached through its index.ts`)
    }
  }
  for (const loop of loopsOf(imports)) problems.push(`these import each other in a loop: ${loop.join(', ')}`)
  return [...new Set(problems)]
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = problemsOf(crossUnitImports(SERVER))
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} import(s) break the server's layers (docs/conventions.md, "Server layers").`,
    )
    process.exit(1)
  }
}
