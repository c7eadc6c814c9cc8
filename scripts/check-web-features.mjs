#!/usr/bin/env node
/**
 * Keeps the web features' doors (docs/conventions.md, "Web"). Each folder of `src/web/features` is
 * a feature; the rest of the web app (routes, components, app, testing) and the other features
 * reach it only through its `index.ts`, and what is loaded on demand with `import()` through its
 * `lazy.ts`. Inside a feature, files import each other directly, never through their own index.
 * An index and a lazy entry only re-export: the build leaves out what a chunk does not use of an
 * index only because it has no code of its own (vite.config.ts). Biome sees one import at a time
 * and cannot tell `import()` from `import`, nor read what an index holds; this script can.
 * Run by `npm run lint`; exits 1 and names each import that breaks it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sourceFiles } from './check-server-layers.mjs'

const WEB = 'src/web'
/** A feature's door for static imports, and the one for `import()`. */
const INDEX = 'index.ts'
const LAZY = 'lazy.ts'

const isTestFile = (file) => /\.test\.tsx?$/.test(file)

/** `import x from '…'`, `export { x } from '…'`, `import '…'` (static) and `import('…')` (dynamic). */
const STATIC_IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g
const BARE_IMPORT = /(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g
const DYNAMIC_IMPORT = /import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g

/** The feature of a path relative to src/web (`features/auth/session.ts`: auth), or null. */
export function featureOf(relative) {
  const parts = relative.split(/[/\\]/)
  return parts[0] === 'features' && parts.length > 2 ? parts[1] : null
}

/** Every relative import of a web source file: `{ file, target, dynamic }`, paths relative to `root`. */
export function importsOf(root, file, text) {
  const imports = []
  const add = (specifier, dynamic) => {
    const target = path.relative(root, path.resolve(root, path.dirname(file), specifier))
    imports.push({ file, target: target.split(path.sep).join('/'), dynamic })
  }
  for (const match of text.matchAll(STATIC_IMPORT)) add(match[1], false)
  for (const match of text.matchAll(BARE_IMPORT)) add(match[1], false)
  for (const match of text.matchAll(DYNAMIC_IMPORT)) add(match[1], true)
  return imports
}

/** Every relative import of the web app under `root` (src/web). */
export function webImports(root) {
  const imports = []
  for (const full of sourceFiles(root)) {
    const file = path.relative(root, full).split(path.sep).join('/')
    imports.push(...importsOf(root, file, readFileSync(full, 'utf8')))
  }
  return imports
}

/** What breaks the rule, one line each. */
export function problemsOf(imports) {
  const problems = []
  for (const { file, target, dynamic } of imports) {
    const to = featureOf(target)
    if (to === null) continue
    const from = featureOf(file)
    const door = target.slice(`features/${to}/`.length)
    if (from === to) {
      if (door === INDEX && !isTestFile(file)) {
        problems.push(`${file} imports ${target}: inside a feature, files import each other directly`)
      }
      continue
    }
    if (dynamic && door !== LAZY) {
      problems.push(
        `${file} imports ${target} with import(): a feature's code loaded on demand goes through its lazy.ts (features/${to}/${LAZY})`,
      )
    } else if (!dynamic && door === LAZY) {
      problems.push(`${file} imports ${target}: a feature's lazy.ts is loaded with import() only`)
    } else if (!dynamic && door !== INDEX) {
      problems.push(
        `${file} imports ${target}: ${from ? 'another feature' : 'a feature'} is reached through its index.ts (features/${to}/${INDEX})`,
      )
    }
  }
  return [...new Set(problems)]
}

/** Comments and `export … from '…'` only: what an index or a lazy entry may hold. */
export function onlyReExports(text) {
  const code = text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/[^\n]*/g, '')
    .replace(/export\s+(?:type\s+)?(?:\*|\{[^}]*\})\s+from\s+['"][^'"]+['"];?/g, '')
  return code.trim() === ''
}

/** Each feature has an index.ts; an index and a lazy entry hold only re-exports. */
export function entryProblems(root) {
  const problems = []
  const features = path.join(root, 'features')
  for (const name of readdirSync(features).sort()) {
    if (!statSync(path.join(features, name)).isDirectory()) continue
    for (const door of [INDEX, LAZY]) {
      const file = path.join(features, name, door)
      if (!existsSync(file)) {
        if (door === INDEX)
          problems.push(`features/${name} has no ${INDEX}: what the rest of the web app uses of it`)
        continue
      }
      if (!onlyReExports(readFileSync(file, 'utf8'))) {
        problems.push(`features/${name}/${door} holds code of its own: it only re-exports (export … from)`)
      }
    }
  }
  return problems
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = [...entryProblems(WEB), ...problemsOf(webImports(WEB))]
  for (const problem of problems) console.error(`${WEB}/${problem}`)
  if (problems.length > 0) {
    console.error(
      `\n${problems.length} problem(s) with the web features' index.ts (docs/conventions.md, "Web").`,
    )
    process.exit(1)
  }
}
