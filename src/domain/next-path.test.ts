import { describe, expect, it } from 'vitest'
import { isSafeNextPath, NEXT_PATH_MAX, safeNextPath } from './next-path.ts'

describe('the path to continue at after signing in', () => {
  it('keeps same-origin relative paths, query included', () => {
    expect(safeNextPath('/reset-password')).toBe('/reset-password')
    expect(safeNextPath('/invite/abc_DEF-123?x=1')).toBe('/invite/abc_DEF-123?x=1')
  })

  it('refuses other sites, schemes, control characters and overlong paths', () => {
    expect(safeNextPath(null)).toBe('/prompts')
    expect(safeNextPath(undefined, '/team')).toBe('/team')
    const bad = [
      '',
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/a\\b',
      'javascript:alert(1)',
      'invite/abc',
      '/invite/abc\nSet-Cookie: x',
      '/invite/abc def',
      `/${'a'.repeat(NEXT_PATH_MAX)}`,
    ]
    for (const next of bad) expect(isSafeNextPath(next), JSON.stringify(next)).toBe(false)
  })
})
