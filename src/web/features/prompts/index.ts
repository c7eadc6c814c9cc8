/**
 * What other features may use of the prompts feature (the prompt picker of conversations, the
 * dashboard, the models' playground): its list and history hooks, "Try it"'s variable inputs, and
 * the save and chat editor the playground's "Save as new version" uses; a team's protected labels
 * (the team management screen).
 * Everything else in this folder is its own business.
 */
export { ChatMessagesEditor } from './chat-editor.tsx'
export { ProtectedLabelsCard } from './protected-labels.tsx'
export {
  useDeletePrompt,
  usePromptList,
  usePromptVersion,
  usePromptVersions,
  useSavePrompt,
} from './queries.ts'
export { compileValuesOf, useProblemText, VariableFields, variableFieldsOf } from './try-it.tsx'
