import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** Where every run is kept (git-ignored history) and the latest run of each benchmark (committed). */
export const RESULTS_DIR = path.resolve(import.meta.dirname, '../.results')
export const LATEST_DIR = path.join(RESULTS_DIR, 'latest')

/** One run of one benchmark as `npm run bench:docs` renders it: what was measured, where, when, on what. */
export interface BenchResult {
  benchmark: string
  date: string
  commit: { sha: string; changedFiles: number }
  machine: {
    cpu: string
    cores: number
    memoryGb: number
    os: string
    node: string
    /** The 1, 5 and 15 minute load averages when the run ended: a busy machine inflates every figure. */
    loadAverage: number[]
  }
  /**
   * The BENCH_* and SOAK_* variables the run was started with that this benchmark reads (addresses,
   * secrets and passwords left out): its sizes and durations, when they were not the defaults.
   */
  settings: Record<string, string>
  figures: unknown
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, {
      cwd: path.resolve(import.meta.dirname, '../..'),
      encoding: 'utf8',
    }).trim()
  } catch {
    return ''
  }
}

/** The source of a benchmark and of the harness it shares: where the variables it reads are named. */
function sourceOf(benchmark: string): string {
  return ['lib', benchmark]
    .map((folder) => path.resolve(import.meta.dirname, '..', folder))
    .filter((folder) => existsSync(folder))
    .flatMap((folder) =>
      readdirSync(folder)
        .filter((file) => file.endsWith('.ts'))
        .map((file) => readFileSync(path.join(folder, file), 'utf8')),
    )
    .join('\n')
}

export function describeRun(benchmark: string, figures: unknown): BenchResult {
  const source = sourceOf(benchmark)
  const status = git(['status', '--porcelain', '--untracked-files=no'])
  return {
    benchmark,
    date: new Date().toISOString(),
    commit: {
      sha: git(['rev-parse', 'HEAD']) || 'unknown',
      changedFiles: status === '' ? 0 : status.split('\n').length,
    },
    machine: {
      cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
      cores: os.availableParallelism(),
      memoryGb: Math.round(os.totalmem() / 2 ** 30),
      os: `${os.type()} ${os.release()}`,
      node: process.version,
      loadAverage: os.loadavg().map((value) => Math.round(value * 100) / 100),
    },
    settings: Object.fromEntries(
      Object.entries(process.env)
        .filter(
          ([key, value]) =>
            /^(BENCH|SOAK)_/.test(key) &&
            !/_(URL|SECRET|PASSWORD)$/.test(key) &&
            source.includes(key) &&
            value !== undefined,
        )
        .sort(([a], [b]) => a.localeCompare(b)) as [string, string][],
    ),
    figures,
  }
}

/**
 * Keeps a run's figures, with the machine, date and commit they were measured on, in
 * `bench/.results/<name>-<time>.json` and as `bench/.results/latest/<name>.json`, the file
 * `npm run bench:docs` renders into docs/benchmarks.md; answers the first path.
 */
export function saveResults(name: string, figures: unknown): string {
  const run = describeRun(name, figures)
  const text = `${JSON.stringify(run, null, 2)}\n`
  const file = path.join(RESULTS_DIR, `${name}-${run.date}.json`)
  mkdirSync(LATEST_DIR, { recursive: true })
  writeFileSync(file, text)
  const latest = path.join(LATEST_DIR, `${name}.json`)
  writeFileSync(latest, text)
  // Committed as it is written, before or without `npm run bench:docs`.
  formatAsRepository(latest)
  return file
}

/** Formats committed files as `npm run lint` wants them (biome's formatter). */
export function formatAsRepository(...paths: string[]): void {
  const root = path.resolve(import.meta.dirname, '../..')
  execFileSync(path.join(root, 'node_modules/.bin/biome'), ['format', '--write', ...paths], {
    cwd: root,
    stdio: 'ignore',
  })
}
