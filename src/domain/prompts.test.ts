import { describe, expect, it } from 'vitest'
import { tagFilterFromUrl } from './fields.ts'
import { createPromptInput, historyPreview, listPromptsQuery, updatePromptInput } from './prompts.ts'
import { fieldErrorsOf } from './validation.ts'

const teamId = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b'

function errors(schema: typeof createPromptInput | typeof updatePromptInput, input: unknown) {
  const result = schema.safeParse(input)
  return result.success ? {} : fieldErrorsOf(result.error)
}

describe('createPromptInput', () => {
  it('trims the title, drops a blank description, cleans the tags and keeps the body as sent', () => {
    expect(
      createPromptInput.parse({
        title: '  Title ',
        description: '   ',
        body: '\n Body \n',
        tags: [' a ', '', 'b', 'a', '  '],
      }),
    ).toEqual({
      title: 'Title',
      description: null,
      body: '\n Body \n',
      tags: ['a', 'b'],
      visibility: 'private',
      teamId: null,
      type: 'text',
      config: {},
      variables: [],
    })
  })

  it("gives the spec's messages for a blank title and body", () => {
    expect(errors(createPromptInput, { title: ' ', body: '  ' })).toEqual({
      title: 'prompts.titleRequired',
      body: 'prompts.contentRequired',
    })
    expect(errors(createPromptInput, {})).toEqual({
      title: 'prompts.titleRequired',
      body: 'prompts.contentRequired',
    })
  })

  it('enforces the length limits', () => {
    expect(errors(createPromptInput, { title: 'x'.repeat(201), body: 'b' }).title).toBe(
      'prompts.titleTooLong',
    )
    expect(errors(createPromptInput, { title: 't', body: 'b'.repeat(50_001) }).body).toBe(
      'prompts.contentTooLong',
    )
    expect(errors(createPromptInput, { title: 't', body: 'b', tags: ['x'.repeat(51)] })).toEqual({
      tags: 'prompts.tagTooLong',
    })
    const tags = Array.from({ length: 21 }, (_, i) => `t${i}`)
    expect(errors(createPromptInput, { title: 't', body: 'b', tags }).tags).toBe('prompts.tooManyTags')
    // Duplicates do not count against the limit.
    expect(errors(createPromptInput, { title: 't', body: 'b', tags: [...tags.slice(0, 20), 't0'] })).toEqual(
      {},
    )
  })

  it('requires a team for team visibility', () => {
    expect(errors(createPromptInput, { title: 't', body: 'b', visibility: 'team' })).toEqual({
      teamId: 'prompts.teamRequired',
    })
    expect(errors(createPromptInput, { title: 't', body: 'b', visibility: 'team', teamId: '' })).toEqual({
      teamId: 'prompts.teamRequired',
    })
    expect(createPromptInput.parse({ title: 't', body: 'b', visibility: 'team', teamId }).teamId).toBe(teamId)
    expect(errors(createPromptInput, { title: 't', body: 'b', visibility: 'public' }).visibility).toBe(
      'prompts.visibilityInvalid',
    )
  })
})

describe('updatePromptInput', () => {
  it('accepts any subset and turns a blank changelog into the default marker', () => {
    expect(updatePromptInput.parse({ body: ' new ', changelog: '  ' })).toEqual({
      body: ' new ',
      changelog: null,
    })
    expect(updatePromptInput.parse({})).toEqual({})
  })
})

describe('listPromptsQuery', () => {
  it('defaults to my prompts, 20 a page, and clamps larger pages to 20', () => {
    expect(listPromptsQuery.parse({})).toMatchObject({ scope: 'owner', limit: 20, tags: [] })
    expect(listPromptsQuery.parse({ limit: '500' }).limit).toBe(20)
    expect(listPromptsQuery.parse({ limit: '5' }).limit).toBe(5)
    // Below one is clamped up rather than refused, like above the maximum.
    expect(listPromptsQuery.parse({ limit: '0' }).limit).toBe(1)
    expect(listPromptsQuery.safeParse({ limit: 'many' }).success).toBe(false)
    expect(listPromptsQuery.safeParse({ scope: 'everyone' }).success).toBe(false)
  })

  it('takes one tag or many and ignores a blank search', () => {
    expect(listPromptsQuery.parse({ tags: 'a' }).tags).toEqual(['a'])
    expect(listPromptsQuery.parse({ tags: ['a', ' b ', 'a'] }).tags).toEqual(['a', 'b'])
    expect(listPromptsQuery.parse({ search: '   ' }).search).toBeUndefined()
  })
})

describe('tagFilterFromUrl', () => {
  it('keeps what the list query accepts from a hand-edited URL, so the list loads instead of failing', () => {
    const values = [' a ', 'a', '', 'x'.repeat(51), ...Array.from({ length: 30 }, (_, i) => `t${i}`)]
    const tags = tagFilterFromUrl(values)
    expect(tags.slice(0, 3)).toEqual(['a', 't0', 't1'])
    expect(tags).toHaveLength(20)
    expect(listPromptsQuery.safeParse({ tags }).success).toBe(true)
    expect(listPromptsQuery.safeParse({ tags: normalizedButUncut(values) }).success).toBe(false)
  })
})

const normalizedButUncut = (values: string[]) => values.map((value) => value.trim()).filter(Boolean)

describe('historyPreview', () => {
  it('cuts a body to 200 characters and marks the cut', () => {
    expect(historyPreview('x'.repeat(200))).toBe('x'.repeat(200))
    expect(historyPreview(`${'y'.repeat(200)}z`)).toBe(`${'y'.repeat(200)}…`)
  })
})
