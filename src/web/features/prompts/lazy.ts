/** What the app loads of prompts on demand, with `import()`: the prompt list's first page, fetched beside the list screen's code. */
export { prefetchPromptList } from './queries.ts'
