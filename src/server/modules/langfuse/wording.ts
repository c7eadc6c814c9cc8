import type { MessageKey, MessageParams } from '../../../domain/messages/index.ts'

/**
 * Langfuse's wording for the refusals its clients and tests read, by our message key. Only the
 * Langfuse routes use it; the app and /api/v1 keep our own translated messages.
 */
const wording: Partial<Record<MessageKey, (params: MessageParams) => string>> = {
  'prompts.labelOrVersion': () => 'Cannot specify both version and label',
  'error.malformedJson': () => 'Invalid JSON body',
  'prompts.typeChange': () =>
    'Previous versions have different prompt type. Create a new prompt with a different name.',
  'prompts.referenceCycle': ({ cycle }) => `Circular dependency detected: ${cycle}`,
  'prompts.referenceMissing': ({ reference }) => `Prompt dependency not found: ${reference}`,
  'prompts.referenceTooDeep': ({ max, chain }) => `Maximum nesting depth exceeded (${max}): ${chain}`,
  'prompts.referenceNotText': ({ reference }) => `Prompt dependency is not a text prompt: ${reference}`,
}

export function langfuseWording(key: MessageKey, params: MessageParams = {}): string | undefined {
  return wording[key]?.(params)
}

/** Langfuse's refusal of a chat prompt whose names are both variables and placeholders. */
export const placeholderClashMessage = (names: readonly string[]) =>
  `Cannot create prompt, variables and placeholders must be unique, the following are not: ${names.join(', ')}`
