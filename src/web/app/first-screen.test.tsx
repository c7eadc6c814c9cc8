import { describe, expect, it } from 'vitest'
import { sessionQuery } from '../features/auth/index.ts'
import { conversationQuery, messagesQuery } from '../features/conversations/index.ts'
import { listFiltersOf } from '../lib/list-filters.ts'
import { stubServer } from '../testing/render.tsx'
import { firstReads, firstScreenOf, sessionRead } from './first-screen.ts'
import { createQueryClient } from './providers.tsx'

const ID = '0b7c6f1e-2d4a-4c3b-9a8e-5f6d7c8b9a0e'

/** The URLs the app's own queries ask for, as the stubbed server saw them. */
async function urlsOf(run: (queryClient: ReturnType<typeof createQueryClient>) => Promise<unknown>) {
  const seen = stubServer(() => ({ body: { user: null, items: [], nextCursor: null } }))
  await run(createQueryClient())
  return seen.map((request) => (request.query.size ? `${request.path}?${request.query}` : request.path))
}

describe('the first reads of a page', () => {
  it('are the very requests of the session query and of the prompt list without filters', async () => {
    const { prefetchPromptList } = await import('../features/prompts/lazy.ts')
    const session = await urlsOf((client) => client.prefetchQuery(sessionQuery))
    const list = await urlsOf(async (client) => {
      prefetchPromptList(client, listFiltersOf(new URLSearchParams(), { folders: true }))
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(session).toEqual([sessionRead])
    expect(firstReads('/prompts', '')).toEqual([sessionRead, ...list])
  })

  it("are a conversation's two first requests on its screen", async () => {
    const urls = await urlsOf((client) =>
      Promise.all([
        client.prefetchQuery(conversationQuery(ID)),
        client.prefetchInfiniteQuery(messagesQuery(ID)),
      ]),
    )
    expect(firstReads(`/conversations/${ID}`, '')).toEqual([sessionRead, ...urls])
  })

  it('leave the list alone when the address holds filters, and other screens to their code', () => {
    expect(firstReads('/prompts', '?search=mail')).toEqual([sessionRead])
    expect(firstReads('/prompts/new', '')).toEqual([sessionRead])
    expect(firstReads('/login', '')).toEqual([sessionRead])
  })

  it('name the screens whose code is asked for at once', () => {
    expect(firstScreenOf('/prompts')).toBe('prompts')
    expect(firstScreenOf(`/conversations/${ID}`)).toBe('conversation')
    expect(firstScreenOf('/')).toBe('dashboard')
    expect(firstScreenOf('/dashboard')).toBe('dashboard')
    expect(firstScreenOf('/prompts/new')).toBeUndefined()
    expect(firstScreenOf('/conversations')).toBeUndefined()
    expect(firstScreenOf('/login')).toBeUndefined()
  })
})
