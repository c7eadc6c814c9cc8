/** What other features use of the API keys feature: the code snippets. */
export { curlSnippet, javascriptSnippet, pythonSnippet } from './snippets.ts'
