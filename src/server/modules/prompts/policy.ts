import { AppError } from '../../../domain/errors.ts'
import type { MessageKey } from '../../../domain/messages/index.ts'

/**
 * §6 prompt owner rules: only the owner edits, deletes and sets the current version; everyone who
 * can see a prompt (see access.ts) may read and copy it. Ids are compared with ids.
 */
export function canEditPrompt(userId: string, prompt: { ownerUserId: string }): boolean {
  return prompt.ownerUserId === userId
}

/** 403 with the spec's message for a prompt the caller sees but does not own. */
export function requirePromptOwner(
  userId: string,
  prompt: { ownerUserId: string },
  messageKey: MessageKey = 'prompts.editForbidden',
): void {
  if (!canEditPrompt(userId, prompt)) throw new AppError('forbidden', messageKey)
}
