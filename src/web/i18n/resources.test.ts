import { describe, expect, it } from 'vitest'
import { resources } from './resources.ts'

function shape(value: unknown, prefix = ''): string[] {
  if (Array.isArray(value)) return [`${prefix}[${value.length}]`]
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, child]) => shape(child, prefix ? `${prefix}.${key}` : key))
  }
  return [prefix]
}

function leaves(value: unknown, prefix = ''): [string, string][] {
  if (typeof value === 'string') return [[prefix, value]]
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).flatMap(([key, child]) => leaves(child, `${prefix}.${key}`))
  }
  return []
}

describe('UI catalogs', () => {
  it('have the same keys in English and German', () => {
    expect(shape(resources.de).sort()).toEqual(shape(resources.en).sort())
  })

  it('have no empty texts and the same {{placeholders}} in both languages', () => {
    const german = new Map(leaves(resources.de))
    for (const [key, text] of leaves(resources.en)) {
      expect(text.trim(), key).not.toBe('')
      const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort()
      expect(vars(german.get(key) ?? ''), key).toEqual(vars(text))
    }
  })
})
