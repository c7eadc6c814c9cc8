import type { OperationAddress } from '../../domain/api/address.ts'
import { operationUrl, withQuery } from '../../domain/api/address.ts'
import { accountAddresses } from '../../domain/api/auth-addresses.ts'
import type { conversationOperations } from '../../domain/api/conversations.ts'
import type { promptOperations } from '../../domain/api/prompts.ts'
import { MESSAGES_PAGE } from '../../domain/constants.ts'

/**
 * What a first visit needs before its screen can show, known from the address alone: the screen's
 * code (the files of the signed-in routes, the shell and the screen) and its first reads (who is
 * signed in, the screen's data). `first-screen-start.ts` asks for both as the page's first script
 * runs, beside the start-up code, instead of one after the other as each module arrives and runs
 * (decision 0269). Nothing here decides what the user may see: a read is the same request the
 * screen makes, and the server answers it as it would the screen's.
 */

type AddressOf<O> = O extends { spec: { method: infer M; path: infer P } } ? { method: M; path: P } : never

/** The screens' first reads, by address; the compiler holds each to its declaration's method and path. */
const promptList: AddressOf<(typeof promptOperations)['list']> & OperationAddress = {
  method: 'GET',
  path: '/v1/prompts',
}
const conversation: AddressOf<(typeof conversationOperations)['get']> & OperationAddress = {
  method: 'GET',
  path: '/v1/conversations/:id',
}
const messages: AddressOf<(typeof conversationOperations)['messages']> & OperationAddress = {
  method: 'GET',
  path: '/v1/conversations/:id/messages',
}

/**
 * The screens whose code is asked for as soon as the session says someone is signed in, by the
 * modules under src/web that the route table loads for them (`app/signed-in-routes.tsx`);
 * vite.config.ts turns each into its built files. Any other path waits for the route table.
 */
export const firstScreens = [
  {
    name: 'prompts',
    path: /^\/prompts\/?$/,
    modules: ['routes/prompts/list.tsx', 'features/prompts/lazy.ts', 'lib/list-filters.ts'],
  },
  {
    name: 'conversation',
    path: /^\/conversations\/[^/]+\/?$/,
    modules: ['routes/conversations/detail.tsx'],
  },
  { name: 'dashboard', path: /^\/(dashboard\/?)?$/, modules: ['routes/dashboard.tsx'] },
] as const

/** What every signed-in screen loads: the route table and the shell around the screen. */
export const signedInModules = ['app/signed-in-routes.tsx', 'features/shell/lazy.ts'] as const

export type FirstScreen = (typeof firstScreens)[number]['name']

export function firstScreenOf(pathname: string): FirstScreen | undefined {
  return firstScreens.find((screen) => screen.path.test(pathname))?.name
}

/** Who is signed in: every page asks. */
export const sessionRead = operationUrl(accountAddresses.session)

/**
 * The URLs of the first reads of a visit to `pathname` + `search`, as the app's queries will ask
 * for them: the session on every page, and the data of a screen whose request the address alone
 * decides (the prompt list without filters; a conversation and its newest messages).
 */
export function firstReads(pathname: string, search: string): string[] {
  const reads = [sessionRead]
  const screen = firstScreenOf(pathname)
  if (screen === 'prompts' && new URLSearchParams(search).size === 0) {
    reads.push(withQuery(operationUrl(promptList), { scope: 'owner' }))
  }
  if (screen === 'conversation') {
    // The route table asks for these two for any id (`prefetchConversation`); so does this.
    const id = decodeURIComponent(pathname.split('/')[2] ?? '')
    reads.push(operationUrl(conversation, { id }))
    reads.push(withQuery(operationUrl(messages, { id }), { order: 'desc', limit: MESSAGES_PAGE.screen }))
  }
  return reads
}
