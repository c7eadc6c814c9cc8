/** What other features use of the API keys feature: the code snippets. */
export { curlSnippet, javascriptSnippet, mcpSnippet, pythonSnippet, useSnippetComments } from './snippets.ts'
