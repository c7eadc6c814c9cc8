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
 * Who is signed in changed (sign-in, sign-up, sign-out, a reset that ended the session): the
 * session becomes `user`, and nothing loaded for whoever used this tab before is kept. Every other
 * query is reset, which tells the screens still showing its data (clear() and removeQueries() do
 * not), and removed, so a screen that stays (the invitation page) loads afresh what it needs.
 * The guards hear of it too: protected screens go to sign-in on null, while PublicOnly has already
 * decided and lets the page that signed in move on by itself.
 */
export function replaceSession(queryClient: QueryClient, user: CurrentUser | null) {
  const cache = queryClient.getQueryCache()
  const userQueries = cache.findAll().filter((query) => query.queryKey[0] !== sessionQuery.queryKey[0])
  notifyManager.batch(() => {
    queryClient.setQueryData(sessionQuery.queryKey, user)
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
    onSuccess: ({ user }) => replaceSession(queryClient, user),
  })
}

export function useSignUp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SignUpInput) => api.post<{ user: CurrentUser }>('/api/v1/auth/sign-up', input),
    onSuccess: ({ user }) => replaceSession(queryClient, user),
  })
}

export function useSignOut() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post('/api/auth/sign-out'),
    // Whatever the server said, this tab forgets the user and everything it loaded for them.
    onSettled: () => replaceSession(queryClient, null),
  })
}
