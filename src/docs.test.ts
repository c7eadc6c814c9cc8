import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * The documentation a reader follows: README.md stays short, every relative link and image in it
 * and in docs/ leads somewhere, the conventions name files that exist, the self-hosting guide
 * lists every variable the server reads, and nothing in the repository points at numbered issues
 * or design sections a reader of the repository cannot open (decision records may cite each other).
 */
const root = path.resolve(import.meta.dirname, '..')
const read = (file: string) => readFileSync(path.join(root, file), 'utf8')

/** Folders that hold no text of ours, or only what tools generate. */
const SKIPPED = new Set(['node_modules', 'dist', 'data', '.git', '.tmp', 'test-results', 'playwright-report'])

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name)
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : filesUnder(file)
    return [file]
  })
}

const markdownFiles = [
  'README.md',
  'DEVELOPERS.md',
  'CHANGELOG.md',
  ...filesUnder('docs').filter((file) => file.endsWith('.md')),
]

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2… */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '')
  for (const [, heading] of withoutCode.matchAll(/^#{1,6}\s+(.+)$/gm)) {
    const base = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    anchors.add(count === 0 ? base : `${base}-${count}`)
  }
  return anchors
}

/** The targets of `[text](target)` and `![alt](target)` outside code blocks and code spans. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!)
}

describe('the documentation', () => {
  it('keeps the README a five-minute read (at most 250 lines)', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(250)
  })

  it.each(markdownFiles)('%s links only to files and headings that exist', (file) => {
    const broken: string[] = []
    for (const link of linksOf(read(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue
      const [target = '', anchor] = link.split('#')
      const resolved =
        target === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), target))
      if (!existsSync(path.join(root, resolved))) {
        broken.push(`${link} (no ${resolved})`)
        continue
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(read(resolved)).has(decodeURIComponent(anchor))) {
        broken.push(`${link} (no heading #${anchor} in ${resolved})`)
      }
    }
    expect(broken).toEqual([])
  })

  it('renders docs/benchmarks.md from the latest result of every benchmark (npm run bench:docs)', () => {
    const page = read('docs/benchmarks.md')
    const latest = path.join(root, 'bench/.results/latest')
    const stale = readdirSync(latest)
      .filter((file) => file.endsWith('.json'))
      .map(
        (file) =>
          JSON.parse(readFileSync(path.join(latest, file), 'utf8')) as {
            date: string
            commit: { sha: string }
          },
      )
      .map(
        (run) =>
          `Measured ${run.date.slice(0, 16).replace('T', ' ')} UTC at commit \`${run.commit.sha.slice(0, 12)}\``,
      )
      .filter((line) => !page.includes(line))
    expect(stale).toEqual([])
  })

  it('names in docs/conventions.md only files and folders that exist', () => {
    const bases = ['', 'src', 'src/web', 'src/server', 'src/domain']
    const missing = [...read('docs/conventions.md').matchAll(/`([^`\s]+)`/g)]
      .map((match) => match[1]!.replace(/[,.:;]$/, ''))
      // Paths only: a folder or a file with an extension, no placeholder (<domain>, {en,de}), no URL path.
      .filter((name) => name.includes('/') && !name.startsWith('/') && !/[<>{}*()=:'"]/.test(name))
      .filter((name) => /\.[a-z]+$/.test(name) || name.endsWith('/'))
      .filter((name) => !bases.some((base) => existsSync(path.join(root, base, name))))
    expect(missing).toEqual([])
  })

  it('lists every variable the server reads in the self-hosting guide', () => {
    const config = read('src/server/config.ts')
    const schema = config.slice(
      config.indexOf('const envSchema'),
      config.indexOf('\n})', config.indexOf('const envSchema')),
    )
    const variables = [...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!)
    const commitVariables = [
      ...read('src/server/modules/admin/build-info.ts').matchAll(/process\.env\.([A-Z_]+)/g),
    ].map((match) => match[1]!)
    expect(variables.length).toBeGreaterThan(10)
    const guide = read('docs/self-hosting.md')
    expect([...variables, ...commitVariables].filter((name) => !guide.includes(`\`${name}\``))).toEqual([])
  })

  it('points at no issue numbers or design sections outside the decision records', () => {
    // Built from parts so that this file does not match itself.
    const patterns = [
      new RegExp(`\\b${'issue'}s? #?\\d+`, 'i'),
      new RegExp(`\\b${'DESIGN'}\\s*(§\\s*)?\\d`),
      /\(#\d+\)/,
    ]
    const text =
      /\.(ts|tsx|mts|mjs|js|json|md|sql|css|html|yml|yaml|txt|example)$|^\.ci\/|(^|\/)\.env\.example$/
    const offending = filesUnder('.')
      .map((file) => file.replace(/^\.\//, ''))
      .filter(
        (file) => text.test(file) && !file.startsWith('docs/decisions/') && file !== 'package-lock.json',
      )
      .filter((file) => statSync(path.join(root, file)).size < 2_000_000)
      .flatMap((file) =>
        read(file)
          .split('\n')
          .flatMap((line, index) =>
            patterns.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
          ),
      )
    expect(offending).toEqual([])
  })
})
