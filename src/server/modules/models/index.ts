/** What the other features use of models: they import it from here only (scripts/check-server-layers.mjs). */
export type { RunHooks } from './run.ts'
export { callModel, enforceRunRates, modelMessage, runSettings } from './run.ts'
export type { ModelDeps } from './service.ts'
export { loadUsableProvider } from './service.ts'
