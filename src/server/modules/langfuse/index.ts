/** What the other features use of langfuse: they import it from here only (scripts/check-server-layers.mjs). */
export { addLangfuseLabels, createLangfuseVersion, getLangfusePrompt } from './service.ts'
