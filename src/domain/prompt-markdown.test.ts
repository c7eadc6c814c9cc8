import { describe, expect, it } from 'vitest'
import { promptToMarkdown } from './prompt-markdown.ts'

describe('promptToMarkdown', () => {
  it('writes title, description, tags, visibility, version, changelog, then the body, in that order', () => {
    const markdown = promptToMarkdown({
      title: ' Summarise a meeting ',
      description: 'Turns notes into a summary.',
      tags: ['meetings', 'summary'],
      visibility: 'team',
      versionNumber: 3,
      changelog: 'Shorter output',
      body: 'Summarise {notes} in three bullet points.',
    })
    expect(markdown).toBe(
      [
        '# Summarise a meeting',
        '',
        'Turns notes into a summary.',
        '',
        '- **Tags:** meetings, summary',
        '- **Visibility:** Team',
        '- **Version:** 3',
        '- **Changelog:** Shorter output',
        '',
        '```',
        'Summarise {notes} in three bullet points.',
        '```',
        '',
      ].join('\n'),
    )
  })

  it('leaves out what has no value', () => {
    expect(
      promptToMarkdown({ title: 'Draft', description: '  ', tags: [], visibility: 'private', body: 'Hello' }),
    ).toBe('# Draft\n\n- **Visibility:** Private\n\n```\nHello\n```\n')
  })

  it('uses a longer fence when the body contains backticks', () => {
    const markdown = promptToMarkdown({
      title: 'Code',
      tags: [],
      visibility: 'private',
      body: 'Answer with:\n```json\n{}\n```',
    })
    expect(markdown).toContain('````\nAnswer with:\n```json\n{}\n```\n````\n')
  })

  it('uses the labels it is given', () => {
    const markdown = promptToMarkdown(
      {
        title: 'T',
        tags: ['a'],
        visibility: 'private',
        versionNumber: 1,
        changelog: 'Erste Version',
        body: 'B',
      },
      {
        tags: 'Tags',
        visibility: 'Sichtbarkeit',
        version: 'Version',
        changelog: 'Änderungen',
        visibilities: { private: 'Privat', team: 'Team' },
      },
    )
    expect(markdown).toContain(
      '- **Sichtbarkeit:** Privat\n- **Version:** 1\n- **Änderungen:** Erste Version',
    )
  })
})
