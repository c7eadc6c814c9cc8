/** What the routes and other features use of the API keys feature: the keys of a space, and the code snippets. */
export { CreateKeyDialog } from './create-key-dialog.tsx'
export { KeyList } from './key-list.tsx'
export { curlSnippet, javascriptSnippet, mcpSnippet, pythonSnippet, useSnippetComments } from './snippets.ts'
export { UsageCards } from './usage-cards.tsx'
