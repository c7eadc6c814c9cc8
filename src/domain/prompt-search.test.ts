import { describe, expect, it } from 'vitest'
import { findHighlights, searchSnippet, searchTerms, snippetParts } from './prompt-search.ts'

describe('search snippets', () => {
  it('reads the words of a search without operators or negated words', () => {
    expect(searchTerms('  Email "draft" -spam or  ')).toEqual(['email "draft" -spam or', 'email', 'draft'])
    expect(searchTerms('')).toEqual([])
  })

  it('marks every occurrence, longest term first, without overlaps', () => {
    expect(findHighlights('Email the email draft', ['email draft', 'email', 'draft'])).toEqual([
      { start: 0, end: 5 },
      { start: 10, end: 21 },
    ])
  })

  it('cuts a long text around the first match, with ellipses and shifted ranges', () => {
    const text = `${'word '.repeat(100)}needle here\nand ${'more '.repeat(100)}`
    const { snippet, highlights } = searchSnippet(text, 'NEEDLE', 60)
    expect(snippet.startsWith('…')).toBe(true)
    expect(snippet.endsWith('…')).toBe(true)
    expect(snippet).not.toContain('\n')
    expect(highlights).toHaveLength(1)
    expect(snippet.slice(highlights[0]!.start, highlights[0]!.end)).toBe('needle')
  })

  it('gives the beginning unmarked when nothing matches literally', () => {
    expect(searchSnippet('Short text', 'absent')).toEqual({ snippet: 'Short text', highlights: [] })
  })

  it('splits into parts and ignores ranges out of bounds', () => {
    expect(
      snippetParts('a <b> c', [
        { start: 2, end: 5 },
        { start: 3, end: 99 },
      ]),
    ).toEqual([
      { text: 'a ', marked: false },
      { text: '<b>', marked: true },
      { text: ' c', marked: false },
    ])
  })
})
