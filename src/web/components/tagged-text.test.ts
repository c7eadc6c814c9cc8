import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { TaggedText } from './tagged-text.tsx'

const render = (text: string) =>
  renderToStaticMarkup(
    createElement(TaggedText, {
      text,
      tags: {
        terms: createElement('a', { href: '/terms' }),
        privacy: createElement('a', { href: '/privacy' }),
      },
    }),
  )

describe('TaggedText', () => {
  it('renders each marked part as its element, the rest as text', () => {
    expect(render('I accept the <terms>Terms</terms> and the <privacy>Privacy Policy</privacy>')).toBe(
      'I accept the <a href="/terms">Terms</a> and the <a href="/privacy">Privacy Policy</a>',
    )
    expect(render('<terms>Nutzungsbedingungen</terms> akzeptiert')).toBe(
      '<a href="/terms">Nutzungsbedingungen</a> akzeptiert',
    )
  })

  it('keeps a text without marks, and the content of a mark it has no element for', () => {
    expect(render('No marks here')).toBe('No marks here')
    expect(render('Read <other>this</other>.')).toBe('Read this.')
  })
})
