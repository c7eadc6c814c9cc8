import type { CurrentUser } from '../../domain/auth.ts'
import type { ErrorBody } from '../../domain/errors.ts'
import { TEST_ORIGIN } from './test-app.ts'

export interface TestResponse<T = unknown> {
  status: number
  headers: Headers
  body: T
}

/** What a client sends its requests to: the app in-process (a TestApp) or a server over HTTP. */
export interface RequestTarget {
  app: { request(path: string, init: RequestInit, env?: unknown): Response | Promise<Response> }
}

/** A real server at `base` (a child process, see server-process.ts) as a client's target. */
export function httpTarget(base: string): RequestTarget {
  return { app: { request: (path, init) => fetch(`${base}${path}`, init) } }
}

/**
 * A browser-like API client: keeps its cookies, sends the app's Origin and JSON, and reads JSON
 * answers. One client per simulated user. Over HTTP (`httpTarget`) pass the server's `origin`.
 */
export class TestClient {
  private cookies = new Map<string, string>()
  user: CurrentUser | null = null

  constructor(
    private readonly testApp: RequestTarget,
    /** `ip`: the client address the server sees (rate limits count per address). */
    private readonly defaults: { locale?: string; origin?: string; ip?: string } = {},
  ) {}

  async request<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
  ): Promise<TestResponse<T>> {
    const headers: Record<string, string> = {
      Origin: this.defaults.origin ?? TEST_ORIGIN,
      'Accept-Language': this.defaults.locale ?? 'en',
      ...options.headers,
    }
    if (this.cookies.size > 0) headers.Cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    let body: string | undefined
    if (options.rawBody !== undefined) body = options.rawBody
    else if (options.body !== undefined) body = JSON.stringify(options.body)
    if (body !== undefined) headers['Content-Type'] ??= 'application/json'
    // What @hono/node-server's getConnInfo reads; without it every test client is 'local'.
    const env = this.defaults.ip ? { incoming: { socket: { remoteAddress: this.defaults.ip } } } : undefined
    const response = await this.testApp.app.request(path, { method, headers, body }, env)
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const index = pair.indexOf('=')
      const name = pair.slice(0, index)
      const value = pair.slice(index + 1)
      if (value === '' || /max-age=0/i.test(cookie)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {
      // leave as text
    }
    return { status: response.status, headers: response.headers, body: parsed as T }
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
   * sending another language, Origin or client address.
   */
  copy(overrides: { locale?: string; origin?: string; ip?: string } = {}): TestClient {
    const other = new TestClient(this.testApp, { ...this.defaults, ...overrides })
    other.cookies = new Map(this.cookies)
    other.user = this.user
    return other
  }

  hasSessionCookie(): boolean {
    return [...this.cookies.keys()].some((name) => name.includes('session_token'))
  }

  /** Signs up (and is then signed in) with a unique email unless one is given. */
  async signUp(email = uniqueEmail(), password = DEFAULT_PASSWORD): Promise<CurrentUser> {
    const res = await this.post<{ user: CurrentUser }>('/api/v1/auth/sign-up', {
      email,
      password,
      confirmPassword: password,
      acceptTerms: true,
    })
    if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`)
    this.user = res.body.user
    return res.body.user
  }

  async signIn(
    email: string,
    password = DEFAULT_PASSWORD,
  ): Promise<TestResponse<{ user: CurrentUser } | ErrorBody>> {
    const res = await this.post<{ user: CurrentUser } | ErrorBody>('/api/v1/auth/sign-in', {
      email,
      password,
    })
    if (res.status === 200 && 'user' in res.body) this.user = res.body.user
    return res
  }
}

export const DEFAULT_PASSWORD = 'correct horse battery staple'

let counter = 0
export function uniqueEmail(prefix = 'user'): string {
  counter += 1
  return `${prefix}${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`
}
