import { render as renderDom } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { type ReactElement, Suspense } from 'react'
import { MemoryRouter } from 'react-router'
import { vi } from 'vitest'
import type { CurrentUser } from '../../domain/auth.ts'
import { createQueryClient, Providers } from '../app/providers.tsx'
import { CurrentUserContext } from '../features/auth/index.ts'
import { StepUpProvider } from '../features/step-up/index.ts'

/** One request the stubbed server saw: method, path (without the query), query and JSON body. */
interface SeenRequest {
  method: string
  path: string
  query: URLSearchParams
  body: unknown
}

/** An answer of the stubbed server: a status and a JSON body (200 when only a body is given). */
export type Answer = { status: number; body?: unknown } | { body: unknown }

/** Answers a request (`undefined`: the test did not expect it, answered 404). */
export type Server = (request: SeenRequest) => Answer | undefined

/** The error envelope the API answers with (src/domain/errors.ts). */
export function errorAnswer(
  status: number,
  code: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return { status, body: { error: { code, message, ...extra } } }
}

/**
 * Stubs `fetch` with `server` for this test and returns the requests it saw: components call the
 * real client (src/web/lib/api.ts), so a test sees the paths and bodies the app would send.
 */
export function stubServer(server: Server): SeenRequest[] {
  const seen: SeenRequest[] = []
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input, 'http://app.test')
    const request: SeenRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    }
    seen.push(request)
    const answer =
      server(request) ?? errorAnswer(404, 'notFound', `no stub for ${request.method} ${request.path}`)
    const status = 'status' in answer ? answer.status : 200
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    })
  })
  return seen
}

/** The signed-in user of a rendered screen unless a test names another. */
export const signedInUser: CurrentUser = {
  id: 'user-1',
  email: 'ada@example.com',
  name: 'Ada',
  globalRole: 'user',
  createdAt: '2026-01-01T00:00:00.000Z',
}

/**
 * Renders `ui` as a signed-in screen (query client, toasts, router at `route`, the signed-in user,
 * the step-up dialog) and returns Testing Library's queries with a `user` that types and clicks as
 * a person does.
 */
export function render(
  ui: ReactElement,
  { route = '/', currentUser = signedInUser }: { route?: string; currentUser?: CurrentUser } = {},
) {
  const queryClient = createQueryClient()
  // A failed read shows its error at once instead of after the app's retries.
  queryClient.setDefaultOptions({
    ...queryClient.getDefaultOptions(),
    queries: { ...queryClient.getDefaultOptions().queries, retry: false },
  })
  const user = userEvent.setup()
  const result = renderDom(
    <Providers queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <CurrentUserContext value={currentUser}>
          <StepUpProvider>
            <Suspense fallback={null}>{ui}</Suspense>
          </StepUpProvider>
        </CurrentUserContext>
      </MemoryRouter>
    </Providers>,
  )
  return { ...result, user, queryClient }
}
