/**
 * What other features may use of the prompts feature (the prompt picker of conversations, the
 * dashboard, the models' playground): its list and history hooks and "Try it"'s variable inputs.
 * Everything else in this folder is its own business.
 */
export { useDeletePrompt, usePromptList, usePromptVersion, usePromptVersions } from './queries.ts'
export { compileValuesOf, useProblemText, VariableFields, variableFieldsOf } from './try-it.tsx'
