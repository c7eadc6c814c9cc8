// biome-ignore lint/style/noRestrictedImports: a test reading the sources; never shipped
import { readdirSync, readFileSync } from 'node:fs'
// biome-ignore lint/style/noRestrictedImports: a test reading the sources; never shipped
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime, formatNumber, formatTime } from './format.ts'

const webRoot = join(import.meta.dirname, '..')

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

/**
 * A formatting call that ignores the UI's language: no locale (the browser's is used), or one
 * written into the code. `toLocaleString(currentLanguage())`, a variable, or a helper of
 * `format.ts` pass.
 */
const unlocalised = [
  /\.toLocale(Date|Time)?String\(\s*(\)|undefined\b|['"`])/,
  /new Intl\.[A-Za-z]+Format\(\s*(\)|undefined\b|['"`])/,
]

describe('dates and numbers follow the UI language', () => {
  it('no source in src/web formats one without the UI locale', () => {
    const offenders = sourceFiles(webRoot).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          unlocalised.some((pattern) => pattern.test(line))
            ? [`${relative(webRoot, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    )
    expect(offenders).toEqual([])
  })

  it('the pattern catches what it should', () => {
    const caught = (line: string) => unlocalised.some((pattern) => pattern.test(line))
    expect(caught('new Date(x).toLocaleString()')).toBe(true)
    expect(caught("new Date(x).toLocaleDateString('en-US', { month: 'short' })")).toBe(true)
    expect(caught('new Intl.NumberFormat().format(n)')).toBe(true)
    expect(caught('value.toLocaleString(currentLanguage())')).toBe(false)
    expect(caught('new Intl.DateTimeFormat(locale, {})')).toBe(false)
  })

  it('the helpers write German in German and English in English', () => {
    const day = '2026-11-28T14:05:09Z'
    expect(formatDate(day, 'en')).toBe('Nov 28, 2026')
    expect(formatDate(day, 'de')).toBe('28. Nov. 2026')
    expect(formatDateTime(day, 'de')).toMatch(/^28\.11\.2026, \d{2}:05$/)
    expect(formatDateTime(day, 'en')).toMatch(/^Nov 28, 2026, \d{1,2}:05\s[AP]M$/)
    expect(formatTime(day, 'de')).toMatch(/^\d{2}:05:09$/)
    expect(formatNumber(1_000_000, 'de')).toBe('1.000.000')
    expect(formatNumber(1_000_000, 'en')).toBe('1,000,000')
  })
})
