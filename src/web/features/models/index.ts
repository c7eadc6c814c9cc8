/** What other features may use of the models feature: the providers the user may run models with. */
export { useUsableProviders } from './queries.ts'
