import { describe, expect, it } from 'vitest'
import { modelsOfText } from './model-names.ts'

describe('modelsOfText', () => {
  it('takes one name a line or comma-separated, trimmed, without blanks', () => {
    expect(modelsOfText('gpt-4.1-mini\n claude-sonnet-4-5 ,llama3.1:8b,,\n\n')).toEqual([
      'gpt-4.1-mini',
      'claude-sonnet-4-5',
      'llama3.1:8b',
    ])
    expect(modelsOfText('  ')).toEqual([])
  })

  it('keeps the characters model names use (slashes, colons, dots)', () => {
    expect(modelsOfText('openai/gpt-4o\r\nqwen2.5:7b-instruct')).toEqual([
      'openai/gpt-4o',
      'qwen2.5:7b-instruct',
    ])
  })
})
