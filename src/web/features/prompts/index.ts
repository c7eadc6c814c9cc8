/**
 * What other features may use of the prompts feature (the prompt picker of conversations, the
 * dashboard): its list and history hooks. Everything else in this folder is its own business.
 */
export { useDeletePrompt, usePromptList, usePromptVersions } from './queries.ts'
