import {
  type InfiniteData,
  infiniteQueryOptions,
  type QueryClient,
  queryOptions,
} from '@tanstack/react-query'
import type { Operation, OperationInput, OperationOutput } from '../../domain/api/operation.ts'
import { type Callable, callOperation } from './api.ts'

/**
 * TanStack Query over the API's declared operations. A query's key is made from its operation:
 * `[group, name, input]`, so `[group]` covers every query of an API area and `[group, name]` every
 * query of one operation — the prefixes that invalidations use. No feature builds keys by hand.
 */
export function operationKey<O extends Operation>(operation: Callable<O>, input?: OperationInput<O>) {
  return input === undefined
    ? ([operation.group, operation.name] as const)
    : ([operation.group, operation.name, input] as const)
}

/** The query of one operation's answer. */
export function operationQuery<O extends Operation>(operation: Callable<O>, input: OperationInput<O>) {
  return queryOptions({
    queryKey: operationKey(operation, input),
    queryFn: ({ signal }) => callOperation(operation, input, { signal }),
  })
}

type Paged = { items: unknown[]; nextCursor: string | null }
type QueryOf<I> = I extends { query?: infer Q } ? NonNullable<Q> : Record<string, never>
type PageOf<O extends Operation> = OperationOutput<O> extends Paged ? OperationOutput<O> : never

/**
 * The pages of a list operation (`{ items, nextCursor }`), each asked with the previous page's
 * cursor. Its key ends with 'pages', so it never shares a cache entry with a single-page query.
 */
export function pagedOperationQuery<O extends Operation>(
  operation: Callable<O>,
  input: OperationInput<O> & { query?: Omit<QueryOf<OperationInput<O>>, 'cursor'> },
) {
  return infiniteQueryOptions<
    PageOf<O>,
    Error,
    InfiniteData<PageOf<O>, string | undefined>,
    readonly unknown[],
    string | undefined
  >({
    queryKey: [...operationKey(operation, input), 'pages'],
    queryFn: ({ pageParam, signal }) => {
      const query = { ...(input as { query?: object }).query, cursor: pageParam }
      return callOperation(operation, { ...input, query } as OperationInput<O>, { signal }) as Promise<
        PageOf<O>
      >
    },
    initialPageParam: undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  })
}

/** Refetches every query of the given API areas or operations (after a write that changed them). */
export function invalidateOperations(
  queryClient: QueryClient,
  ...targets: (Operation | { $group: { name: string } })[]
) {
  for (const target of targets) {
    const queryKey = '$group' in target ? [target.$group.name] : operationKey(target)
    void queryClient.invalidateQueries({ queryKey })
  }
}
