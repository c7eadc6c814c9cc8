/** What the routes and other features use of the models feature. */
export { PlaygroundCard } from './playground.tsx'
export { AddProviderDialog, ProviderList } from './provider-list.tsx'
export { useUsableProviders } from './queries.ts'
