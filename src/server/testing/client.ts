import { type Query, withQuery } from '../../domain/api/address.ts'
import { authOperations } from '../../domain/api/auth.ts'
import {
  type Operation,
  type OperationInput,
  type OperationOutput,
  operationUrl,
} from '../../domain/api/operation.ts'
import type { CurrentUser } from '../../domain/auth.ts'
import { type ErrorBody, isErrorBody } from '../../domain/errors.ts'
import { TEST_ORIGIN, type TestApp } from './test-app.ts'

export interface TestResponse<T = unknown> {
  status: number
  headers: Headers
  body: T
}

/** A server reached over HTTP (a real process, or a proxy in front of several) and its public origin. */
export interface HttpTarget {
  url: string
  origin: string
}

/** A real server at `base` (a child process, see server-process.ts), which is also its origin. */
export function httpTarget(base: string): HttpTarget {
  return { url: base, origin: base }
}

/**
 * A browser-like API client: keeps its cookies, sends the app's Origin and JSON, and reads JSON
 * answers. One client per simulated user. It talks to an in-process test app, or over HTTP to an
 * `HttpTarget` (then `ip` is sent as X-Forwarded-For, for servers that trust the proxy in front).
 */
export class TestClient {
  private cookies = new Map<string, string>()
  user: CurrentUser | null = null

  constructor(
    private readonly testApp: TestApp | HttpTarget,
    /**
     * `ip`: the client address the server sees (rate limits count per address). `origin: null`
     * sends no Origin, as code does; `authorization` goes with every request (see `keyClient`).
     */
    private readonly defaults: ClientDefaults = {},
  ) {}

  /** The request as sent, and the answer unread (a stream, say); cookies are taken as `request` takes them. */
  async send(
    method: string,
    path: string,
    options: {
      body?: unknown
      rawBody?: string
      headers?: Record<string, string>
      signal?: AbortSignal
    } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { 'Accept-Language': this.defaults.locale ?? 'en' }
    if (this.defaults.origin !== null) {
      headers.Origin = this.defaults.origin ?? ('origin' in this.testApp ? this.testApp.origin : TEST_ORIGIN)
    }
    if (this.defaults.authorization) headers.Authorization = this.defaults.authorization
    Object.assign(headers, options.headers)
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    let body: string | undefined
    if (options.rawBody !== undefined) body = options.rawBody
    else if (options.body !== undefined) body = JSON.stringify(options.body)
    if (body !== undefined) headers['Content-Type'] ??= 'application/json'
    let response: Response
    if ('app' in this.testApp) {
      // What @hono/node-server's getConnInfo reads; without it every test client is 'local'.
      const env = this.defaults.ip ? { incoming: { socket: { remoteAddress: this.defaults.ip } } } : undefined
      response = await this.testApp.app.request(path, { method, headers, body, signal: options.signal }, env)
    } else {
      if (this.defaults.ip) headers['X-Forwarded-For'] = this.defaults.ip
      response = await fetch(new URL(path, this.testApp.url), {
        method,
        headers,
        body,
        signal: options.signal,
      })
    }
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const index = pair.indexOf('=')
      const name = pair.slice(0, index)
      const value = pair.slice(index + 1)
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<TestResponse<T>> {
    const response = await this.send(method, path, options)
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      // leave as text
    }
    return { status: response.status, headers: response.headers, body: parsed as T }
  }

  /**
   * Calls a declared operation as the web app does: the path from its declaration, the answer typed
   * by its schema (an error answer is `ErrorBody`, told apart by `status`). Tests of routing itself
   * spell paths out with `request`.
   */
  call<O extends Operation>(
    operation: O,
    input: OperationInput<O>,
    headers?: Record<string, string>,
  ): Promise<TestResponse<OperationOutput<O>>> {
    return this.callUnchecked(operation, input as UncheckedInput, headers) as Promise<
      TestResponse<OperationOutput<O>>
    >
  }

  /**
   * `call` with an input its schema would refuse at compile time (a wrong type, a missing field):
   * for the tests of validation, which must reach the server with what a hostile client sends.
   */
  callUnchecked<O extends Operation>(
    operation: O,
    input: UncheckedInput,
    headers?: Record<string, string>,
  ): Promise<TestResponse<unknown>> {
    const { params, query, body } = input
    const { method } = operation.spec
    const path = withQuery(operationUrl(operation.spec, params), query)
    const hasBody = method !== 'GET' && method !== 'DELETE'
    return this.request(method, path, {
      body: hasBody ? (body ?? {}) : undefined,
      headers,
    })
  }

  get<T = unknown>(path: string, headers?: Record<string, string>) {
    return this.request<T>('GET', path, { headers })
  }
  post<T = unknown>(path: string, body?: unknown) {
    return this.request<T>('POST', path, { body: body ?? {} })
  }
  patch<T = unknown>(path: string, body: unknown) {
    return this.request<T>('PATCH', path, { body })
  }
  put<T = unknown>(path: string, body: unknown) {
    return this.request<T>('PUT', path, { body })
  }
  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path)
  }

  /**
   * A second client holding the same cookies (e.g. a stolen or kept session token), optionally
   * sending another language, Origin or client address, or talking to another server (`target`).
   */
  copy(overrides: ClientDefaults = {}, target: TestApp | HttpTarget = this.testApp): TestClient {
    const other = new TestClient(target, { ...this.defaults, ...overrides })
    other.cookies = new Map(this.cookies)
    other.user = this.user
    return other
  }

  hasSessionCookie(): boolean {
    return [...this.cookies.keys()].some((name) => name.includes('session_token'))
  }

  /** Signs up (and is then signed in) with a unique email unless one is given. */
  /** A new client of `testApp` that has signed up (a fresh account) and is signed in as it. */
  static async signedUp(testApp: TestApp | HttpTarget, defaults: ClientDefaults = {}): Promise<TestClient> {
    const client = new TestClient(testApp, defaults)
    await client.signUp()
    return client
  }

  async signUp(email = uniqueEmail(), password = DEFAULT_PASSWORD): Promise<CurrentUser> {
    const res = await this.call(authOperations.signUp, {
      body: { email, password, confirmPassword: password, acceptTerms: true },
    })
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`)
    this.user = res.body.user
    return res.body.user
  }

  async signIn(
    email: string,
    password = DEFAULT_PASSWORD,
  ): Promise<TestResponse<{ user: CurrentUser } | ErrorBody>> {
    const res = (await this.call(authOperations.signIn, { body: { email, password } })) as TestResponse<
      { user: CurrentUser } | ErrorBody
    >
    if (res.status === 200 && 'user' in res.body) this.user = res.body.user
    return res
  }
}

interface ClientDefaults {
  locale?: string
  origin?: string | null
  ip?: string
  authorization?: string
}

/**
 * A code client: no session, no Origin, only an API key (`Bearer <secret>` for the app's routes,
 * `keyPairAuthorization` for the Langfuse ones) on every request.
 */
export function keyClient(target: TestApp | HttpTarget, authorization: string): TestClient {
  return new TestClient(target, { origin: null, authorization })
}

type UncheckedInput = { params?: Record<string, string>; query?: Query; body?: unknown }

/**
 * The error of a refused request, typed; fails the test with the answer's status and body when the
 * answer is not an error (so a wrong success shows up as itself, not as a missing property).
 */
export function errorOf(res: TestResponse<unknown>): ErrorBody['error'] {
  if (res.status < 400 || !isErrorBody(res.body)) {
    throw new Error(`expected an error answer, got ${res.status}: ${JSON.stringify(res.body)}`)
  }
  return res.body.error
}

/** The Authorization header of a key pair on the Langfuse routes (HTTP Basic, public:secret). */
export function keyPairAuthorization(key: { publicKey: string; secretKey: string }): string {
  return `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}`
}

export const DEFAULT_PASSWORD = 'correct horse battery staple'

let counter = 0
export function uniqueEmail(prefix = 'user'): string {
  counter += 1
  return `${prefix}${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`
}
