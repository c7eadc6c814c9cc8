import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { type ComponentType, lazy } from 'react'
import {
  type Location,
  matchRoutes,
  type Params,
  type RouteObject,
  useLocation,
  useRoutes,
} from 'react-router'
import { loadNamespaces, type Namespace } from '../i18n/index.ts'

/**
 * What a route does as soon as it matches, before its screen renders: load the screen's code and
 * texts (`lazyPage`), start asking for its data. Every matched route's starts at once, so a page
 * inside the shell does not wait for the shell's code before its own starts downloading.
 */
interface RouteHandle {
  enter: (location: Pick<Location, 'pathname' | 'search'>, queryClient: QueryClient, params: Params) => void
}

/**
 * A lazily loaded screen and the catalog namespaces it needs beyond common and shell, loaded side
 * by side: `lazyPage(() => import('../routes/x.tsx'), 'XPage', ['prompts'])`. Signed-in screens
 * need none: the shell loads every namespace of the active language. `extra` runs on arrival too.
 */
export function lazyPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M,
  namespaces: readonly Namespace[] | 'all' = [],
  extra?: RouteHandle['enter'],
): Pick<RouteObject, 'element' | 'handle'> {
  let loading: Promise<{ default: ComponentType }> | undefined
  const loadPage = () =>
    (loading ??= Promise.all([load(), loadNamespaces(namespaces)]).then(([module]) => ({
      default: module[name] as ComponentType,
    })))
  const Page = lazy(loadPage)
  const handle: RouteHandle = {
    enter: (location, queryClient, params) => {
      // The data first: its request waits for the code that makes it, in the browser's queue of six
      // connections with the screen's own files.
      extra?.(location, queryClient, params)
      void loadPage()
    },
  }
  return { element: <Page />, handle }
}

/** Starts what every route of `routes` matching `location` does on arrival: its code, texts and first data. */
export function enterRoutes(
  routes: RouteObject[],
  location: Pick<Location, 'pathname' | 'search'>,
  queryClient: QueryClient,
) {
  // The innermost route first (the page before the shell around it), for the same reason.
  for (const { route, params } of (matchRoutes(routes, location) ?? []).reverse()) {
    ;(route.handle as RouteHandle | undefined)?.enter(location, queryClient, params)
  }
}

/** The element of the route of `routes` that matches the location, each matched route entered first. */
export function useRouteTable(routes: RouteObject[]) {
  const location = useLocation()
  enterRoutes(routes, location, useQueryClient())
  return useRoutes(routes, location)
}
