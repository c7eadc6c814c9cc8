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

/** A query as callers give it: repeated parameters as arrays; empty values are left out. */
export type Query = Record<string, string | number | boolean | string[] | undefined | null>

export function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue
    if (Array.isArray(value)) for (const item of value) params.append(key, item)
    else params.append(key, String(value))
  }
  const text = params.toString()
  return text ? `${path}?${text}` : path
}
