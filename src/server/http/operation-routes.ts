import type { Context, Hono, MiddlewareHandler } from 'hono'
import { operationGroups } from '../../domain/api/index.ts'
import type { Operation } from '../../domain/api/operation.ts'
import type { AppEnv } from './env.ts'

/**
 * Hono's RegExpRouter (the fast one of its SmartRouter) gives up on a method whose paths put a
 * fixed segment where another has a parameter (`GET /v1/prompts/tags` beside `GET /v1/prompts/:id`
 * or `/v1/prompts/:id/versions`), and the whole app then falls back to its TrieRouter. Such an
 * operation is routed by the parameter's pattern instead (`/v1/prompts/:id` for `tags`) and picked
 * by the segment's value: the paths the API answers stay as declared (decision 0275).
 */
export interface RouteOfOperation {
  /** The pattern registered with the router. */
  pattern: string
  /** For a fixed segment routed as a parameter: the parameter's name and the segment's text. */
  literal?: { param: string; text: string }
}

type Address = { method: string; segments: string[] }

const isParam = (segment: string) => segment.startsWith(':')

/** Every declared operation's method and Hono path, split into segments. */
function declaredAddresses(): Address[] {
  return operationGroups.flatMap((group) =>
    Object.entries(group)
      .filter(([name]) => name !== '$group')
      .map(([, operation]) => {
        const { method, path } = (operation as Operation).spec
        return { method, segments: `/api${path}`.split('/') }
      }),
  )
}

/** Whether two paths' first `length` segments are the same to the router (any parameter alike). */
function samePrefix(a: string[], b: string[], length: number): boolean {
  for (let i = 0; i < length; i++) {
    if (a[i] !== b[i] && !(isParam(a[i]!) && isParam(b[i]!))) return false
  }
  return true
}

/**
 * How to route `method path` among `addresses`: the first fixed segment with a parameter beside it
 * becomes that parameter, the segments before it spelled as the other path spells them (so that
 * both register one pattern where they have the same length).
 */
export function routeOfOperation(method: string, path: string, addresses: Address[]): RouteOfOperation {
  const segments = path.split('/')
  for (let i = 1; i < segments.length; i++) {
    const text = segments[i]!
    if (isParam(text)) continue
    const beside = addresses.find(
      (other) =>
        other.method === method &&
        other.segments.length > i &&
        isParam(other.segments[i]!) &&
        samePrefix(other.segments, segments, i),
    )
    if (!beside) continue
    const pattern = [...beside.segments.slice(0, i + 1), ...segments.slice(i + 1)].join('/')
    return { pattern, literal: { param: beside.segments[i]!.slice(1), text } }
  }
  return { pattern: path }
}

/** Every declared operation's route, and the patterns a fixed segment shares, with their parameter. */
function planRoutes() {
  const addresses = declaredAddresses()
  const routes = new Map<string, RouteOfOperation>()
  const shared = new Map<string, string>()
  for (const { method, segments } of addresses) {
    const route = routeOfOperation(method, segments.join('/'), addresses)
    routes.set(`${method} ${segments.join('/')}`, route)
    if (route.literal) shared.set(`${method} ${route.pattern}`, route.literal.param)
  }
  return { routes, shared }
}

let plan: ReturnType<typeof planRoutes> | undefined

type Serve = (c: Context<AppEnv>) => Promise<Response>

/** The operations of one method and pattern: by the fixed segment's text, else the parameter's. */
interface Dispatch {
  byText: Map<string, Serve>
  byParam?: Serve
}

const dispatchesOf = new WeakMap<Hono<AppEnv>, Map<string, Dispatch>>()

/**
 * Registers `serve` for `method path` on `app`: directly, or, where a fixed segment sits beside a
 * parameter, on one handler per method and pattern that picks the operation by the segment's text
 * (a request that names none of them goes on to the next route: the API's 404).
 */
export function routeOperation(app: Hono<AppEnv>, method: string, path: string, serve: Serve): void {
  plan ??= planRoutes()
  const route = plan.routes.get(`${method} ${path}`) ?? { pattern: path }
  const key = `${method} ${route.pattern}`
  const param = plan.shared.get(key)
  if (param === undefined) {
    app.on(method, path, serve)
    return
  }
  let dispatches = dispatchesOf.get(app)
  if (!dispatches) {
    dispatches = new Map()
    dispatchesOf.set(app, dispatches)
  }
  let dispatch = dispatches.get(key)
  if (!dispatch) {
    const created: Dispatch = { byText: new Map() }
    dispatch = created
    dispatches.set(key, created)
    const handler: MiddlewareHandler<AppEnv> = (c, next) => {
      const chosen = created.byText.get(c.req.param(param) as string) ?? created.byParam
      return chosen ? chosen(c) : next()
    }
    app.on(method, route.pattern, handler)
  }
  if (route.literal) dispatch.byText.set(route.literal.text, serve)
  else dispatch.byParam = serve
}

/**
 * The app's routes as it answers them. Hono's `app.routes` lists what was registered, so a pattern
 * shared by fixed segments (`GET /api/v1/prompts/:id` for `tags` and `export` too) appears once;
 * here it is listed once per operation it picks (`/api/v1/prompts/tags`, `/api/v1/prompts/:id`...).
 */
export function servedRoutes(app: Hono<AppEnv>): { method: string; path: string }[] {
  const dispatches = dispatchesOf.get(app)
  return app.routes.flatMap(({ method, path }) => {
    const dispatch = dispatches?.get(`${method} ${path}`)
    const param = plan?.shared.get(`${method} ${path}`)
    if (!dispatch || param === undefined) return [{ method, path }]
    const spelled = (text: string) =>
      path
        .split('/')
        .map((segment) => (segment === `:${param}` ? text : segment))
        .join('/')
    return [
      ...[...dispatch.byText.keys()].map((text) => ({ method, path: spelled(text) })),
      ...(dispatch.byParam ? [{ method, path }] : []),
    ]
  })
}
