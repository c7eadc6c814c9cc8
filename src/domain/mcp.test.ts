import { describe, expect, it } from 'vitest'
import { mcpMessagesOf, ORIGINAL_ROLE_META, promptArguments, valuesOfArguments } from './mcp.ts'
import { variablesSchema } from './prompt-variables.ts'

const declarations = variablesSchema.parse([
  { name: 'tone', type: 'enum', values: ['calm', 'brisk'], required: true, description: 'How to sound' },
  { name: 'items', type: 'list' },
  { name: 'limit', type: 'number', required: true, default: 3 },
])

describe('MCP prompt arguments', () => {
  it('offers declared variables typed, then undeclared ones and placeholders, all optional but the required', () => {
    const body = JSON.stringify([
      { role: 'system', content: '{{tone}} {{items}} {{limit}} {{extra}}' },
      { type: 'placeholder', name: 'history' },
    ])
    const parsed = JSON.parse(body)
    expect(promptArguments('chat', body, parsed, declarations, 'en')).toEqual([
      { name: 'tone', description: 'How to sound · One of: calm, brisk', required: true },
      { name: 'items', description: 'A JSON list, e.g. ["a", "b"]', required: false },
      { name: 'limit', description: 'A number · Default: 3', required: false },
      { name: 'extra', required: false },
      { name: 'history', description: expect.stringContaining('JSON list'), required: false },
    ])
  })

  it('reads a list variable and a placeholder from JSON, and refuses either when it is not a list', () => {
    const ok = valuesOfArguments(declarations, ['history'], {
      items: '["a","b"]',
      history: '[{"role":"user","content":"hi"}]',
      tone: 'calm',
    })
    expect(ok).toEqual({
      ok: true,
      values: { items: ['a', 'b'], tone: 'calm' },
      filled: { history: [{ role: 'user', content: 'hi' }] },
    })
    expect(valuesOfArguments(declarations, [], { items: 'a, b' })).toMatchObject({
      ok: false,
      problem: { name: 'items', key: 'mcp.listArgumentInvalid' },
    })
    expect(
      valuesOfArguments(declarations, ['history'], { history: '[{"type":"placeholder","name":"x"}]' }),
    ).toMatchObject({
      ok: false,
      problem: { name: 'history', key: 'mcp.placeholderInvalid' },
    })
  })

  it('keeps user and assistant, turns any other role into a user message that remembers it, and fills placeholders', () => {
    const messages = mcpMessagesOf(
      [
        { role: 'system', content: 'Be calm.' },
        { type: 'placeholder', name: 'history' },
        { type: 'placeholder', name: 'unfilled' },
        { role: 'assistant', content: 'Hello.' },
      ],
      { history: [{ role: 'user', content: 'Hi' }] },
    )
    expect(messages).toEqual([
      {
        role: 'user',
        content: { type: 'text', text: 'Be calm.', _meta: { [ORIGINAL_ROLE_META]: 'system' } },
      },
      { role: 'user', content: { type: 'text', text: 'Hi' } },
      { role: 'assistant', content: { type: 'text', text: 'Hello.' } },
    ])
    expect(mcpMessagesOf('Just text', {})).toEqual([
      { role: 'user', content: { type: 'text', text: 'Just text' } },
    ])
  })
})
