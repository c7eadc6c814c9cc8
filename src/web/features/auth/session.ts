import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
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

export function useSignIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SignInInput) => api.post<{ user: CurrentUser }>('/api/v1/auth/sign-in', input),
    onSuccess: ({ user }) => {
      queryClient.clear()
      queryClient.setQueryData(sessionQuery.queryKey, user)
    },
  })
}

export function useSignUp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (input: SignUpInput) => api.post<{ user: CurrentUser }>('/api/v1/auth/sign-up', input),
    onSuccess: ({ user }) => {
      queryClient.clear()
      queryClient.setQueryData(sessionQuery.queryKey, user)
    },
  })
}

export function useSignOut() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => api.post('/api/auth/sign-out'),
    // Whatever the server said, this tab forgets the user and everything it loaded for them.
    onSettled: () => {
      queryClient.clear()
      queryClient.setQueryData(sessionQuery.queryKey, null)
    },
  })
}
