import { describe, expect, it } from 'vitest'
import { de } from './de.ts'
import { en } from './en.ts'
import { interpolate, pickLocale, translate } from './index.ts'

describe('the shared message catalogs', () => {
  it('have the same keys in English and German, none empty', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort())
    for (const [key, text] of [...Object.entries(en), ...Object.entries(de)]) {
      expect(text.trim(), key).not.toBe('')
    }
  })

  it('keep the same placeholders in both languages', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(de[key]), key).toEqual(placeholders(en[key]))
    }
  })
})

describe('pickLocale', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['de-DE,de;q=0.9,en;q=0.8', 'de'],
    ['en-US,en;q=0.9,de;q=0.8', 'en'],
    ['fr-FR,fr;q=0.9,de;q=0.5', 'de'],
    ['fr-FR', 'en'],
    ['en;q=0.2,de;q=0.8', 'de'],
    ['de;q=0', 'en'],
  ])('%s → %s', (header, locale) => {
    expect(pickLocale(header)).toBe(locale)
  })
})

describe('translate', () => {
  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'auth.rateLimitWait', { seconds: 42 })).toBe(
      'Rate limit reached. Please wait 42 seconds before trying again.',
    )
    expect(interpolate('a {b} {c}', { b: 1 }, 'en')).toBe('a 1 {c}')
  })

  it("writes numbers in the request's language: a limit of 1000000 is 1,000,000 in English, 1.000.000 in German", () => {
    const limit = { max: 1_000_000, chain: 'a → b' }
    expect(translate('en', 'prompts.referenceTooLarge', limit)).toBe(
      'With its references resolved the text would be longer than 1,000,000 characters: a → b.',
    )
    expect(translate('de', 'prompts.referenceTooLarge', limit)).toContain('1.000.000')
    expect(translate('de', 'auth.rateLimitWait', { seconds: 1200 })).toContain('1.200 Sekunden')
    // A number that names something is passed as a string and is not grouped.
    expect(translate('en', 'prompts.staleVersion', { version: '1234' })).toContain('version 1234 ')
  })
})
