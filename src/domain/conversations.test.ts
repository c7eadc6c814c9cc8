import { describe, expect, it } from 'vitest'
import {
  appendMessageInput,
  newConversationForm,
  parseTagList,
  toCreateConversationInput,
} from './conversations.ts'

describe('parseTagList', () => {
  it('splits on commas, trims, drops empties and duplicates', () => {
    expect(parseTagList(' ideas, launch ,, ideas,  ')).toEqual(['ideas', 'launch'])
    expect(parseTagList('')).toEqual([])
  })
})

describe('toCreateConversationInput', () => {
  it('turns the dialog fields into the API input', () => {
    const form = newConversationForm.parse({ title: ' Plan ', teamId: '', firstMessage: '  ', tags: 'a, b,' })
    expect(toCreateConversationInput(form)).toEqual({ title: 'Plan', teamId: null, tags: ['a', 'b'] })
    const withMessage = newConversationForm.parse({
      title: 'x',
      teamId: 't1',
      firstMessage: ' hi ',
      tags: '',
    })
    expect(toCreateConversationInput(withMessage)).toEqual({
      title: 'x',
      teamId: 't1',
      firstMessage: 'hi',
      tags: [],
    })
  })

  it('checks the tags typed into the dialog', () => {
    const result = newConversationForm.safeParse({
      title: 'x',
      teamId: '',
      firstMessage: '',
      tags: 'y'.repeat(51),
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.message).toBe('conversations.tagTooLong')
  })
})

describe('appendMessageInput', () => {
  it('defaults to a user message without model, tokens or attachments', () => {
    expect(appendMessageInput.parse({ content: { text: ' hi ' } })).toEqual({
      role: 'user',
      content: { text: 'hi' },
      model: null,
      tokenCount: null,
      attachments: [],
    })
  })
})
