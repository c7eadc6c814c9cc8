import { notifyManager, QueryClient, QueryObserver, type QueryObserverResult } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { CurrentUser } from '../../../domain/auth.ts'
import { replaceSession, sessionQuery } from './session.ts'

const user: CurrentUser = {
  id: '00000000-0000-4000-8000-000000000001',
  email: 'ada@example.com',
  name: 'Ada',
  globalRole: 'user',
  createdAt: '2026-01-01T00:00:00.000Z',
}

/** Subscribes like a mounted screen and records every result it is told about. */
function watch<T>(queryClient: QueryClient, queryKey: readonly unknown[]) {
  const seen: QueryObserverResult<T>[] = []
  const observer = new QueryObserver<T>(queryClient, { queryKey, enabled: false })
  const unsubscribe = observer.subscribe((result) => seen.push(result))
  return { seen, unsubscribe }
}

// Subscribers hear of changes at once here, instead of on the scheduler's next tick.
notifyManager.setScheduler((notify) => notify())

describe('replaceSession', () => {
  it('tells screens still on show that the session and their data are gone, and keeps nothing', () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(sessionQuery.queryKey, user)
    queryClient.setQueryData(['prompts', 'list'], ['a private prompt'])
    const session = watch<CurrentUser | null>(queryClient, [...sessionQuery.queryKey])
    const prompts = watch<string[]>(queryClient, ['prompts', 'list'])

    replaceSession(queryClient, null)

    expect(session.seen.at(-1)?.data).toBeNull()
    expect(prompts.seen.at(-1)?.data).toBeUndefined()
    expect(queryClient.getQueryData(sessionQuery.queryKey)).toBeNull()
    expect(queryClient.getQueryCache().find({ queryKey: ['prompts', 'list'] })).toBeUndefined()
    session.unsubscribe()
    prompts.unsubscribe()
  })

  it('signs another user in without keeping what the previous one loaded', () => {
    const queryClient = new QueryClient()
    queryClient.setQueryData(sessionQuery.queryKey, null)
    queryClient.setQueryData(['teams', 'mine'], ['a team of the previous user'])
    const teams = watch<string[]>(queryClient, ['teams', 'mine'])

    replaceSession(queryClient, user)

    expect(queryClient.getQueryData(sessionQuery.queryKey)).toEqual(user)
    expect(teams.seen.at(-1)?.data).toBeUndefined()
    expect(queryClient.getQueryCache().find({ queryKey: ['teams', 'mine'] })).toBeUndefined()
    teams.unsubscribe()
  })

  it('wins over a session check that was asked before it and answers after it', async () => {
    const queryClient = new QueryClient()
    let answer: (user: CurrentUser | null) => void = () => {}
    const check = queryClient.fetchQuery({
      queryKey: sessionQuery.queryKey,
      queryFn: () => new Promise<CurrentUser | null>((resolve) => (answer = resolve)),
    })

    replaceSession(queryClient, user)
    answer(null) // "signed out": true when it was asked, before the sign-in
    await check.catch(() => {})

    expect(queryClient.getQueryData(sessionQuery.queryKey)).toEqual(user)
  })
})
