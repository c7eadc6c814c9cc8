// Makes langfuse-prompts.openapi.yml: the prompt operations of Langfuse's published OpenAPI
// document (`web/public/generated/api/openapi.yml` in langfuse/langfuse), unchanged, with the
// component schemas they reference and nothing else. Run it when Langfuse's document changes:
//   node contract/langfuse-openapi/extract-prompts.mjs <path of openapi.yml> <commit it came from>
// The whole document is 0.5 MB of operations Promptfolio does not have (tracing, datasets, SCIM).
import { readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { parse, stringify } from 'yaml'

const [source, commit] = process.argv.slice(2)
if (!source || !commit) {
  console.error('usage: node extract-prompts.mjs <openapi.yml> <langfuse commit>')
  process.exit(1)
}
const document = parse(readFileSync(source, 'utf8'), { maxAliasCount: -1 })

const promptPaths = Object.fromEntries(
  Object.entries(document.paths).filter(([route]) => route.startsWith('/api/public/v2/prompts')),
)

/** Every component schema a value names with `$ref`, and the ones those name, transitively. */
const schemas = {}
const visit = (value) => {
  if (Array.isArray(value)) return value.forEach(visit)
  if (!value || typeof value !== 'object') return
  const ref = value.$ref
  if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
    const name = ref.slice('#/components/schemas/'.length)
    if (!(name in schemas)) {
      schemas[name] = document.components.schemas[name]
      visit(schemas[name])
    }
  }
  Object.values(value).forEach(visit)
}
visit(promptPaths)

const extract = {
  openapi: document.openapi,
  info: document.info,
  paths: promptPaths,
  components: {
    schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    securitySchemes: document.components.securitySchemes,
  },
}
const header = [
  "# The prompt operations of Langfuse's published OpenAPI document, unchanged, and the schemas they",
  '# reference; made by extract-prompts.mjs beside this file. Source: github.com/langfuse/langfuse,',
  `# web/public/generated/api/openapi.yml at ${commit}.`,
  '# Copyright (c) 2023-2026 ClickHouse, Inc.; MIT license, in LANGFUSE-LICENSE beside this file.',
]
const target = path.join(import.meta.dirname, 'langfuse-prompts.openapi.yml')
writeFileSync(
  target,
  `${header.join('\n')}\n${stringify(extract, { aliasDuplicateObjects: false, lineWidth: 0 })}`,
)
console.log(`${target}: ${Object.keys(promptPaths).length} paths, ${Object.keys(schemas).length} schemas`)
