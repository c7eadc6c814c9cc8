import {
  notifyManager,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { createContext, useContext } from 'react'
import type { CurrentUser, SignInInput, SignUpInput } from '../../../domain/auth.ts'
import { ApiError, api } from '../../lib/api.ts'

export const sessionQuery = queryOptions({
  queryKey: ['session'],
  queryFn: async () => (await api.get<{ user: CurrentUser | null }>('/api/v1/session')).user,
  staleTime: 5 * 60_000,
  retry: (count, error) => error instanceof ApiError && error.code === 'network' && count < 3,
})

export function useSession() {
  return useQuery(sessionQuery)
}

/**
 * The user that the protected layout verified. Held in context rather than read from the query, so
 * that a screen being unmounted during sign-out never sees "no user".
 */
export const CurrentUserContext = createContext<CurrentUser | null>(null)

export function useCurrentUser(): CurrentUser {
  const user = useContext(CurrentUserContext)
  if (!user) throw new Error('useCurrentUser outside the protected layout')
  return user
}

/**
 * Signed in (or up) as `user`: nothing loaded for whoever used this tab before is kept. clear()
 * does not tell the screens on show, on purpose: the page that signed in moves on by itself (to
 * where the visitor came from, sign-up after its success screen), where telling PublicOnly would
 * send the visitor to the prompts at once.
 */
export function startSession(queryClient: QueryClient, user: CurrentUser) {
  queryClient.clear()
  queryClient.setQueryData(sessionQuery.queryKey, user)
}

/**
 * The session ended (signed out, or a password reset ended it). The session becomes null, so the
 * guards send protected screens to sign-in. Every other query is reset, which tells the screens
 * still showing its data (clear() and removeQueries() do not), and removed, so a screen that stays
 * (the invitation page) loads afresh what it still needs.
 */
export function endSession(queryClient: QueryClient) {
  const cache = queryClient.getQueryCache()
  const userQueries = cache.findAll().filter((query) => query.queryKey[0] !== sessionQuery.queryKey[0])
  notifyManager.batch(() => {
    queryClient.setQueryData(sessionQuery.queryKey, null)
    for (const query of userQueries) {
      query.reset()
      cache.remove(query)
    }
  })
}

export function useSignIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SignInInput) => api.post<{ user: CurrentUser }>('/api/v1/auth/sign-in', input),
    onSuccess: ({ user }) => startSession(queryClient, user),
  })
}

export function useSignUp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SignUpInput) => api.post<{ user: CurrentUser }>('/api/v1/auth/sign-up', input),
    onSuccess: ({ user }) => startSession(queryClient, user),
  })
}

export function useSignOut() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post('/api/auth/sign-out'),
    // Whatever the server said, this tab forgets the user and everything it loaded for them.
    onSettled: () => endSession(queryClient),
  })
}
