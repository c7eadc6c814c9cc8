import { describe, expect, it } from 'vitest'
import { catalogs } from '../../domain/messages/index.ts'
import { resources } from './resources.ts'

/**
 * The German UI and its server messages say du (docs/conventions.md). The only Sie-forms are the
 * spec's own German messages, kept word for word.
 */
const specWording = new Set(['auth.codeInvalid'])

/** A formal possessive or pronoun, or "Sie" inside a sentence (at a sentence start it may be "she/it"). */
const formal = /\b(Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres|Ihnen)\b|(?<![.!?:„"]\s*|^\s*)\bSie\b/

function flatten(value: unknown, prefix: string, into: [string, string][]): [string, string][] {
  if (typeof value === 'string') into.push([prefix, value])
  else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, into)
  }
  return into
}

describe('the German texts use du', () => {
  it('the UI catalogs have no Sie-form', () => {
    const formalTexts = flatten(resources.de, '', []).filter(([, text]) => formal.test(text))
    expect(formalTexts).toEqual([])
  })

  it('the server messages have none beyond the spec’s own wording', () => {
    const formalTexts = Object.entries(catalogs.de).filter(
      ([key, text]) => !specWording.has(key) && formal.test(text),
    )
    expect(formalTexts).toEqual([])
  })

  it('the check finds what it should and leaves a sentence-initial "Sie" alone', () => {
    expect(formal.test('Bitte überprüfen Sie Ihre Eingabe')).toBe(true)
    expect(formal.test('Wir schicken Ihnen einen Code')).toBe(true)
    expect(formal.test('Deine Adresse. Sie kann nicht geändert werden.')).toBe(false)
    expect(formal.test('Sie kann nicht geändert werden.')).toBe(false)
    expect(formal.test('Dein Code ruft den Prompt ab')).toBe(false)
  })
})
