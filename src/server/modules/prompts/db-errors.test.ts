import { DrizzleQueryError } from 'drizzle-orm'
import { describe, expect, it } from 'vitest'
import { AppError } from '../../../domain/errors.ts'
import { mapPromptDbError } from './db-errors.ts'

function pgError(code: string) {
  return Object.assign(new Error('duplicate key value violates unique constraint'), { code })
}

function mapped(error: unknown): unknown {
  try {
    mapPromptDbError(error)
  } catch (thrown) {
    return thrown
  }
  return undefined
}

describe('mapPromptDbError', () => {
  it.each([
    ['23505', 'conflict', 'prompts.alreadyExists'],
    ['23503', 'conflict', 'prompts.referenced'],
    ['23514', 'validation', 'error.validation'],
  ])('maps %s to %s', (code, kind, key) => {
    const error = mapped(new DrizzleQueryError('insert ...', [], pgError(code)))
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe(kind)
    expect((error as AppError).messageKey).toBe(key)
  })

  it('keeps application errors and unknown failures as they are', () => {
    const appError = new AppError('not_found', 'prompts.notFound')
    expect(mapped(appError)).toBe(appError)
    const unknown = pgError('57014')
    expect(mapped(unknown)).toBe(unknown)
  })
})
