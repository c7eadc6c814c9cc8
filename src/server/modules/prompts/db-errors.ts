import { AppError } from '../../../domain/errors.ts'

/** The Postgres error code of a driver error, also when drizzle wrapped it. */
function pgCode(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}

/** The constraint a driver error names, also when drizzle wrapped it. */
function pgConstraint(error: unknown): string | undefined {
  for (let current = error; current instanceof Error; current = current.cause) {
    const constraint = (current as { constraint?: unknown }).constraint
    if (typeof constraint === 'string') return constraint
    const named = /constraint "([^"]+)"/.exec(current.message)?.[1]
    if (named) return named
  }
  return undefined
}

const nameIndexes = new Set(['prompts_personal_name_idx', 'prompts_team_name_idx'])

/**
 * 's prompt-related database errors: a duplicate is a conflict ('Prompt already exists'), a
 * foreign key that blocks a delete is a conflict with its own message, a failed check is a
 * validation error. Anything else stays what it was (an unexpected 500 without internals).
 */
export function mapPromptDbError(error: unknown): never {
  if (error instanceof AppError) throw error
  switch (pgCode(error)) {
    case '23505':
      if (nameIndexes.has(pgConstraint(error) ?? '')) {
        throw new AppError('conflict', 'prompts.nameTaken', {
          fields: { name: 'prompts.nameTaken' },
          reason: 'name_taken',
        })
      }
      throw new AppError('conflict', 'prompts.alreadyExists')
    case '23503':
      throw new AppError('conflict', 'prompts.referenced')
    case '23514':
      throw new AppError('validation')
    default:
      throw error
  }
}
