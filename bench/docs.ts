// `npm run bench:docs`: renders docs/benchmarks.md from the latest run of each benchmark
// (bench/.results/latest/<name>.json, written by saveResults) and the method beside its code
// (bench/<name>/method.md). The page is never edited by hand: run a benchmark, then this.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { type BenchResult, formatAsRepository, LATEST_DIR } from './lib/results.ts'

const root = path.resolve(import.meta.dirname, '..')
const output = path.join(root, 'docs/benchmarks.md')

/** The order of the page; each name is a folder of bench/ with a method.md and an npm script. */
const BENCHMARKS: { name: string; title: string; script: string }[] = [
  { name: 'prompts', title: 'Prompts API against its bare floor and SQL limit', script: 'bench:prompts' },
  {
    name: 'conversations',
    title: 'Conversations API against its bare floor and SQL limit',
    script: 'bench:conversations',
  },
  { name: 'runtime-cache', title: 'The runtime fetch from memory', script: 'bench:runtime-cache' },
  { name: 'dashboard', title: 'Dashboard', script: 'bench:dashboard' },
  { name: 'growth', title: 'Lists as the tables grow', script: 'bench:growth' },
  { name: 'search', title: 'Prompt search at 1M versions', script: 'bench:search' },
  { name: 'admin-search', title: 'Admin account search at 1M accounts', script: 'bench:admin-search' },
  { name: 'craft', title: 'Body search at 1M versions, export and import', script: 'bench:craft' },
  { name: 'startup', title: 'Start-up time and idle memory', script: 'bench:startup' },
  { name: 'bundle', title: 'JavaScript of the sign-in pages', script: 'bench:bundle' },
  { name: 'web', title: 'Largest Contentful Paint and INP in Chromium', script: 'bench:web' },
  { name: 'plans', title: 'The plan gate on a prompt create', script: 'bench:plans' },
  { name: 'webhooks', title: 'Webhook deliveries', script: 'bench:webhooks' },
  { name: 'scale-out', title: 'An API key’s limit across two processes', script: 'bench:scale-out' },
  {
    name: 'replicas',
    title: 'Read replicas',
    script: 'bench:replicas',
  },
  { name: 'soak', title: 'Soak: ten minutes of mixed load', script: 'soak' },
]

const WORDS: Record<string, string> = {
  ms: 'ms',
  mb: 'MB',
  kb: 'KB',
  kib: 'KiB',
  cpu: 'CPU',
  rss: 'RSS',
  sql: 'SQL',
  api: 'API',
  id: 'id',
  url: 'URL',
  p50: 'p50',
  p99: 'p99',
  n: 'N',
  hono: 'Hono',
}

/** `startCpuMs` → `start CPU ms`: figure names as a reader says them. */
function label(key: string): string {
  // Latencies are kept in milliseconds throughout bench/ (lib/stats.ts); a bare p50 or p99 says so.
  if (key === 'p50' || key === 'p99') return `${key} ms`
  return (
    key
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .split(/[\s_]+/)
      .map((word) => WORDS[word.toLowerCase()] ?? word.toLowerCase())
      .join(' ')
      // A size (`1M`, split above as `1 M`) keeps its capital: "1M", not "1 m".
      .replace(/\b(\d+) m\b/g, '$1M')
  )
}

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  if (Number.isInteger(value)) return value.toLocaleString('en-US')
  const digits = Math.abs(value) >= 1000 ? 0 : Math.abs(value) >= 10 ? 1 : Math.abs(value) >= 1 ? 2 : 3
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** A value inside a table cell: nested figures on one line, every figure kept. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '–'
  if (typeof value === 'number') return formatNumber(value)
  if (typeof value === 'string') return value.replace(/\|/g, '\\|').replace(/\s+/g, ' ')
  if (typeof value === 'boolean') return value ? 'yes' : 'no'
  if (Array.isArray(value)) return value.map(cell).join('; ')
  if (isRecord(value))
    return Object.entries(value)
      .map(([key, inner]) => `${label(key)} ${cell(inner)}`)
      .join(', ')
  return String(value)
}

function markdownTable(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n')
}

/** Columns of a list of objects: the keys of each row in order of first appearance, one level flattened. */
function rowsTable(items: Record<string, unknown>[]): string {
  const flat = items.map((item) => {
    const row: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(item)) {
      if (
        isRecord(value) &&
        Object.values(value).every((inner) => !isRecord(inner) && !Array.isArray(inner))
      ) {
        for (const [innerKey, inner] of Object.entries(value)) row[`${key} ${label(innerKey)}`] = inner
      } else {
        row[key] = value
      }
    }
    return row
  })
  const columns = [...new Set(flat.flatMap((row) => Object.keys(row)))]
  return markdownTable(
    columns.map(label),
    flat.map((row) => columns.map((column) => cell(row[column]))),
  )
}

/** Every figure of a run: scalars as one table, lists of objects as tables of their own, nested groups by name. */
function renderFigures(figures: unknown, depth = 4): string {
  if (!isRecord(figures)) return cell(figures)
  const scalars: string[][] = []
  const parts: string[] = []
  for (const [key, value] of Object.entries(figures)) {
    if (Array.isArray(value) && value.length > 0 && value.every(isRecord)) {
      parts.push(`${'#'.repeat(depth)} ${label(key)}\n\n${rowsTable(value)}`)
    } else if (
      isRecord(value) &&
      Object.values(value).some((inner) => isRecord(inner) || Array.isArray(inner))
    ) {
      parts.push(`${'#'.repeat(depth)} ${label(key)}\n\n${renderFigures(value, Math.min(depth + 1, 6))}`)
    } else {
      scalars.push([label(key), cell(value)])
    }
  }
  const head = scalars.length > 0 ? [markdownTable(['figure', 'value'], scalars)] : []
  return [...head, ...parts].join('\n\n')
}

function measuredOn(run: BenchResult): string {
  const { machine, commit } = run
  const settings = Object.entries(run.settings)
  const n = commit.changedFiles
  const changed = n > 0 ? ` plus ${n} uncommitted ${n === 1 ? 'change' : 'changes'}` : ''
  return [
    `Measured ${run.date.slice(0, 16).replace('T', ' ')} UTC at commit \`${commit.sha.slice(0, 12)}\`${changed}, on ${machine.cpu} (${machine.cores} cores, ${machine.memoryGb} GB, ${machine.os}, Node ${machine.node}); load average ${machine.loadAverage.join(' / ')} when it ended.`,
    settings.length > 0
      ? `Settings: ${settings.map(([key, value]) => `\`${key}=${value}\``).join(', ')}.`
      : 'Settings: the defaults.',
  ].join(' ')
}

function readLatest(name: string): BenchResult | undefined {
  const file = path.join(LATEST_DIR, `${name}.json`)
  if (!existsSync(file)) return undefined
  return JSON.parse(readFileSync(file, 'utf8')) as BenchResult
}

function renderBenchmarksPage(): string {
  const known = new Set(BENCHMARKS.map((b) => b.name))
  const strays = existsSync(LATEST_DIR)
    ? readdirSync(LATEST_DIR).filter((file) => file.endsWith('.json') && !known.has(file.slice(0, -5)))
    : []
  if (strays.length > 0)
    throw new Error(`bench/.results/latest holds results of no listed benchmark: ${strays.join(', ')}`)
  const sections = BENCHMARKS.map(({ name, title, script }) => {
    const method = readFileSync(path.join(root, 'bench', name, 'method.md'), 'utf8').trim()
    const run = readLatest(name)
    const body = run
      ? `${measuredOn(run)}\n\n${renderFigures(run.figures)}`
      : `_Not measured yet: run \`npm run ${script}\`, then \`npm run bench:docs\`._`
    return `## ${title}\n\n\`npm run ${script}\`\n\n${method}\n\n### Latest result\n\n${body}`
  })
  const overview = markdownTable(
    ['benchmark', 'latest run', 'commit', 'settings'],
    BENCHMARKS.map(({ name, title }) => {
      const run = readLatest(name)
      return [
        `[${title}](#${anchor(title)})`,
        run ? `${run.date.slice(0, 10)}, load ${run.machine.loadAverage[0]}` : 'not measured yet',
        run ? `\`${run.commit.sha.slice(0, 12)}\`` : '–',
        run ? (Object.keys(run.settings).length > 0 ? 'not the defaults' : 'defaults') : '–',
      ]
    }),
  )
  return `${[
    '# Benchmarks',
    '<!-- Generated by `npm run bench:docs` from bench/.results/latest/ and bench/*/method.md. Do not edit: run a benchmark, then `npm run bench:docs`. -->',
    'How fast Promptfolio is, measured by the benchmarks in `bench/`: each section says how it measures, then the figures of its latest run with the machine, date and commit they come from. Figures depend on the machine and on what else runs on it (the load average says how busy it was); compare runs of one machine only. Nothing in `npm test` asserts timings. Most benchmarks need PostgreSQL (`DEVELOPERS.md`) and work in a database of their own; a benchmark builds `dist/` from the working tree when it starts, so keep the tree still between the runs you compare (or measure from a `git worktree`). A run that was cut short (smaller `BENCH_*` sizes or durations) says so under Settings.',
    overview,
    ...sections,
  ].join('\n\n')}\n`
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-')
}

writeFileSync(output, renderBenchmarksPage())
// The page and the result files are committed: formatted as the rest of the repository (npm run lint).
formatAsRepository(output, LATEST_DIR)
console.log(`wrote ${path.relative(process.cwd(), output)}`)
