/**
 * Where an operation is called: its method and path, without its schemas. Free of zod, so that a
 * page can call operations by address without downloading the schemas (the sign-in pages,
 * decision 0220); `operation.ts` builds the declarations on it.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface OperationAddress {
  method: HttpMethod
  /** Under `/api`, with `:name` path parameters (`/v1/prompts/:id`). */
  path: string
}

/** `/v1/prompts/:id` with `{ id }` → `/api/v1/prompts/<encoded id>`. */
export function operationUrl(address: OperationAddress, params: Record<string, string> = {}): string {
  return `/api${address.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new Error(`${address.path}: missing path parameter ${name}`)
    return encodeURIComponent(value)
  })}`
}
