import {
  notifyManager,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { createContext, useContext } from 'react'
import { authLibraryPaths } from '../../../domain/api/auth-addresses.ts'
import type { CurrentUser, SignInInput, SignUpInput } from '../../../domain/auth.ts'
import { ApiError, callOperation, postToAuthLibrary } from '../../lib/api.ts'
import { operationKey } from '../../lib/queries.ts'
import { accountCalls, authCalls } from './operations.ts'

export const sessionQuery = queryOptions({
  queryKey: operationKey(accountCalls.session),
  queryFn: async () => (await callOperation(accountCalls.session, {})).user,
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
  const userQueries = cache
    .findAll()
    .filter(
      (query) =>
        query.queryKey[0] !== sessionQuery.queryKey[0] || query.queryKey[1] !== sessionQuery.queryKey[1],
    )
  notifyManager.batch(() => {
    // A session check still on its way was asked before this change; its answer is out of date.
    void queryClient.cancelQueries({ queryKey: sessionQuery.queryKey })
    queryClient.setQueryData(sessionQuery.queryKey, user)
    for (const query of userQueries) {
      query.reset()
      cache.remove(query)
    }
  })
}

/**
 * Resolves once the session check a sign-in page made on arrival has answered. A sign-in sent
 * before that waits for it, so the page has decided that the visitor arrived signed out (see
 * PublicOnly) before the new session replaces the old one.
 */
export function arrivalChecked(queryClient: QueryClient): Promise<unknown> {
  return queryClient.ensureQueryData(sessionQuery)
}

export function useSignIn() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: SignInInput) => {
      await arrivalChecked(queryClient)
      return callOperation(authCalls.signIn, { body })
    },
    onSuccess: ({ user }) => replaceSession(queryClient, user),
  })
}

export function useSignUp() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async (body: SignUpInput) => {
      await arrivalChecked(queryClient)
      return callOperation(authCalls.signUp, { body })
    },
    onSuccess: ({ user }) => replaceSession(queryClient, user),
  })
}

/**
 * Ends the session on the server. Only then does this tab forget the user: when the server could
 * not end it, the user stays signed in and the caller says so (the cookie would still be valid).
 */
export function useSignOut() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => postToAuthLibrary(authLibraryPaths.signOut),
    onSuccess: () => replaceSession(queryClient, null),
  })
}
