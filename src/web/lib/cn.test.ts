import { describe, expect, it } from 'vitest'
import { cn } from './cn.ts'

describe('cn', () => {
  it('skips falsy parts', () => {
    expect(cn('a', false, null, undefined, 'b')).toBe('a b')
  })

  it('lets the later class of the same property win, whatever the stylesheet order', () => {
    expect(cn('max-w-lg p-6', 'max-w-2xl')).toBe('p-6 max-w-2xl')
    expect(cn('min-h-8 px-3 py-1', 'px-0 py-0 min-h-0')).toBe('px-0 py-0 min-h-0')
    expect(cn('min-h-24 py-2', 'min-h-0')).toBe('py-2 min-h-0')
  })

  it('keeps a size and a colour of text apart, also for the app tokens', () => {
    expect(cn('text-sm text-muted-foreground', 'text-destructive')).toBe('text-sm text-destructive')
    expect(cn('text-[13px] bg-muted', 'text-xs bg-accent/50')).toBe('text-xs bg-accent/50')
  })
})
