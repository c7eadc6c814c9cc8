import { describe, expect, it } from 'vitest'
import { MESSAGE_TEXT_MAX } from '../../../domain/conversations.ts'
import { storableText, withAttachments } from './replies.ts'

describe('a model’s answer as a message', () => {
  it('keeps at most the message limit, never cutting a character in two', () => {
    const answer = `${'a'.repeat(MESSAGE_TEXT_MAX - 1)}😀 and more`
    const text = storableText(answer)
    expect(text).toBe('a'.repeat(MESSAGE_TEXT_MAX - 1))
    expect(text.length).toBeLessThanOrEqual(MESSAGE_TEXT_MAX)
  })

  it('drops what PostgreSQL’s JSON cannot store', () => {
    expect(storableText('a\u0000b \uD800c \uDC00d')).toBe('ab \uFFFDc \uFFFDd')
    expect(storableText('  fine 😀  ')).toBe('fine 😀')
  })
})

describe('a message with its attached prompts', () => {
  it('puts text prompts before the text in the message’s role, and chat messages before it', () => {
    expect(
      withAttachments('system', 'Be brief.', [
        'You are kind.',
        [
          { role: 'user', content: 'Hi' },
          { type: 'placeholder', name: 'history' },
          { role: 'assistant', content: 'Hello' },
        ],
      ] as never),
    ).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello' },
      { role: 'system', content: 'You are kind.\n\nBe brief.' },
    ])
  })
})
