import { describe, expect, it } from 'vitest'
import { fieldHitsOf } from './search.ts'

describe('fieldHitsOf', () => {
  it('reads both fields back from every rank the search statement can give', () => {
    // Each field scores 0 (no match), 1 (part of a word) or 2 (whole word); the body 0–99.
    for (const title of [0, 1, 2]) {
      for (const description of [0, 1, 2]) {
        for (const body of [0, 10, 99]) {
          const rank = 100 * (9 * title + 3 * description) + body
          expect(fieldHitsOf(rank), `title ${title}, description ${description}, body ${body}`).toEqual({
            title: title > 0,
            description: description > 0,
          })
        }
      }
    }
  })
})
