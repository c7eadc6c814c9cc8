import type { Actor } from '../../../domain/auth.ts'
import { AppError } from '../../../domain/errors.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'
import { type PromptRightsRef, promptAccess } from '../../../domain/permissions.ts'
import type { PromptAccess } from '../../../domain/prompts.ts'

/** What a caller who sees the prompt but may not do `action` is told. */
const deniedMessage: Record<keyof PromptAccess, MessageKey> = {
  edit: 'prompts.editForbidden',
  setCurrent: 'prompts.editForbidden',
  delete: 'prompts.deleteForbidden',
}

/** 403 with the spec's message unless the permission table lets `actor` do `action`. */
export function requirePromptAccess(
  actor: Pick<Actor, 'id' | 'globalRole'>,
  prompt: PromptRightsRef,
  action: keyof PromptAccess,
): void {
  if (!promptAccess(actor, prompt)[action]) throw new AppError('forbidden', deniedMessage[action])
}
