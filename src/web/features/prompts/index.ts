/**
 * What the routes and other features use of the prompts feature: its reads, queries and mutations;
 * the list's row, filter and transfer; the detail and edit screens' cards, form, variables and
 * history; for other features (the prompt picker of conversations, the dashboard, the models'
 * playground, the team management screen) "Try it"'s variable inputs, the chat editor and a team's
 * protected labels. The list's prefetch is loaded on demand through `lazy.ts`.
 */
export { ChatMessagesEditor, PromptBodyView } from './chat-editor.tsx'
export { CompareVersionsButton } from './compare.tsx'
export { CopyButton } from './copy-button.tsx'
export { CodeSnippetCard, LabelsCard } from './labels.tsx'
export { useMarkdownExport } from './markdown.ts'
export { emptyPromptForm, PromptFields, PromptFormActions, usePromptForm } from './prompt-form.tsx'
export { PromptLoadFailed, PromptLoading } from './prompt-load-state.tsx'
export { promptQuery, promptVersionsQuery } from './prompt-reads.ts'
export { PromptRow } from './prompt-row.tsx'
export { ProtectedLabelsCard } from './protected-labels.tsx'
export {
  useCreatePrompt,
  useDeletePrompt,
  usePrompt,
  usePromptList,
  usePromptVersion,
  usePromptVersions,
  useRefreshPrompt,
  useSavePrompt,
  useSetCurrentVersion,
  useVersion,
} from './queries.ts'
export { SaveChanges } from './save-changes.tsx'
export { TagFilter } from './tag-filter.tsx'
export { PromptTransferButton } from './transfer-dialog.tsx'
export { compileValuesOf, TryItCard, useProblemText, VariableFields, variableFieldsOf } from './try-it.tsx'
export { UsedByCard } from './used-by.tsx'
export { VariableLint, VariablesPanel } from './variables-panel.tsx'
export { ViewVersionButton } from './version-dialog.tsx'
export { VersionHistoryCard } from './version-list.tsx'
export { VisibilityLabel } from './visibility.tsx'
