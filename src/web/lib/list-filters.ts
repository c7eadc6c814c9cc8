import { useSearchParams } from 'react-router'
import { type ListScope, SEARCH_MAX, tagFilterFromUrl } from '../../domain/fields.ts'
import { isUuid } from '../../domain/ids.ts'
import { folderParam } from '../../domain/prompt-folders.ts'

/**
 * The filters of a list screen (prompts, conversations), kept in the URL with the API's own
 * vocabulary — `?scope=team&teamId=…&search=…&tags=a&tags=b` — so a filtered list can be shared,
 * reloaded and reached again with the back button, and the URL reads like the request it makes.
 */
export interface ListFilters {
  scope: ListScope
  /** With scope 'team': one of the user's teams; absent: all of them. */
  teamId?: string
  /** Trimmed; absent when empty. */
  search?: string
  tags: string[]
  /** Prompts only (`folders: true`): the names under this folder (`a/b` for `a/b/…`). */
  folder?: string
  /** Prompts only (`folders: true`): a search reads every version's text, not only the current. */
  versions?: 'all'
}

/** The filters a URL's query holds, cut to what the server accepts (see `useListFilters`). */
export function listFiltersOf(
  params: URLSearchParams,
  options: { teamScope?: boolean; folders?: boolean } = {},
): ListFilters {
  const scope: ListScope = options.teamScope !== false && params.get('scope') === 'team' ? 'team' : 'owner'
  const teamId = params.get('teamId')
  return {
    scope,
    teamId: scope === 'team' && isUuid(teamId ?? undefined) ? (teamId ?? undefined) : undefined,
    search: params.get('search')?.trim().slice(0, SEARCH_MAX) || undefined,
    tags: tagFilterFromUrl(params.getAll('tags')),
    ...(options.folders && {
      folder: folderFromUrl(params.get('folder')),
      versions: params.get('versions') === 'all' ? 'all' : undefined,
    }),
  }
}

/** A folder as the server accepts it (no empty segment, not too long), else none. */
function folderFromUrl(value: string | null): string | undefined {
  const parsed = folderParam.safeParse(value ?? undefined)
  return parsed.success ? parsed.data : undefined
}

/**
 * Reads and writes a list's filters in the URL. What a hand-edited or shared URL holds is cut to
 * what the server accepts (a team id must look like one, the search and the tags to their limits),
 * so a bad link shows a list instead of an error. `teamScope: false` (a user without teams) keeps
 * the scope at 'owner'.
 */
export function useListFilters(options: { teamScope?: boolean; folders?: boolean } = {}) {
  const [params, setParams] = useSearchParams()
  const filters = listFiltersOf(params, options)
  // From the address as it is when the change applies, not as this render saw it: a navigation
  // renders as a transition, so a second change before that render (a search box's debounced
  // call) would otherwise undo the first.
  const update = (patch: Partial<ListFilters>) =>
    setParams(
      (current) => {
        const next = { ...listFiltersOf(current, options), ...patch }
        const query = new URLSearchParams()
        if (next.scope === 'team') query.set('scope', 'team')
        if (next.scope === 'team' && next.teamId) query.set('teamId', next.teamId)
        if (next.search) query.set('search', next.search)
        for (const tag of next.tags) query.append('tags', tag)
        if (next.folder) query.set('folder', next.folder)
        if (next.versions) query.set('versions', next.versions)
        return query
      },
      { replace: true },
    )
  const filtered = Boolean(filters.search || filters.tags.length > 0 || filters.teamId || filters.folder)
  return { filters, update, filtered }
}
