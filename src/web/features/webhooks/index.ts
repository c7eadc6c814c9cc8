/** What the routes use of the webhooks feature: the endpoints of a space, and adding one. */
export { AddEndpointDialog } from './endpoint-form.tsx'
export { EndpointList } from './endpoint-list.tsx'
