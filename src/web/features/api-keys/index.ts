/** What other features use of the API keys feature: the code snippets. */
export { javascriptSnippet, pythonSnippet } from './snippets.ts'
