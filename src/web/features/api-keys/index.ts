/** What other features use of the API keys feature: the code snippets. */
export { curlSnippet, javascriptSnippet, pythonSnippet, useSnippetComments } from './snippets.ts'
