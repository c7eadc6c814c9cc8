/** What the other features use of prompts: they import it from here only (scripts/check-server-layers.mjs). */

export type { PromptRow } from './access.ts'
export { findVisiblePrompt, promptColumns, promptNotFound, promptOwnedBy, promptVisibleTo } from './access.ts'
export {
  compileAsContext,
  compileDraft,
  compileFoundVersion,
  compileVersion,
  expandedVariables,
  findCompileVersion,
} from './compile.ts'
export { mapPromptDbError } from './db-errors.ts'
export { PromptInUseError } from './deletion.ts'
export { inSpace } from './names.ts'
export { resolveInSpace } from './references.ts'
export { exportedPrompts } from './transfer.ts'
export * as writes from './writes.ts'
export { removePrompts } from './writes.ts'
