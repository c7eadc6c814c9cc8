import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { type ComponentType, lazy } from 'react'
import { type Location, matchRoutes, Navigate, type RouteObject, useLocation, useRoutes } from 'react-router'
import { PublicOnly, RequireAuth, RequireGlobalAdmin } from '../features/auth/guards.tsx'
import { loadNamespaces, type Namespace } from '../i18n/index.ts'
import { AuthLayout } from '../routes/auth/auth-layout.tsx'
import { RouteErrorBoundary } from './error-fallbacks.tsx'

/**
 * What a route does as soon as it matches, before its screen renders: load the screen's code and
 * texts (`lazyPage`), start asking for its data. Every matched route's starts at once, so a page
 * inside the shell does not wait for the shell's code before its own starts downloading.
 */
interface RouteHandle {
  enter: (location: Pick<Location, 'pathname' | 'search'>, queryClient: QueryClient) => void
}

/**
 * A lazily loaded screen and the catalog namespaces it needs beyond common and shell, loaded side
 * by side: `lazyPage(() => import('../routes/x.tsx'), 'XPage', ['prompts'])`. Signed-in screens
 * need none: the shell loads every namespace of the active language.
 */
function lazyPage<M extends Record<string, unknown>>(
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
    enter: (location, queryClient) => {
      void loadPage()
      extra?.(location, queryClient)
    },
  }
  return { element: <Page />, handle }
}

const authPage = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) =>
  lazyPage(load, name, ['auth'])

async function prefetchPromptList(queryClient: QueryClient, params: URLSearchParams) {
  const [{ prefetchPromptList: prefetch }, { listFiltersOf }] = await Promise.all([
    import('../features/prompts/queries.ts'),
    import('../lib/list-filters.ts'),
  ])
  prefetch(queryClient, listFiltersOf(params))
}

/** The spec's route table with its guards. */
const routes: RouteObject[] = [
  {
    children: [
      // Public auth pages: a signed-in visitor goes to /prompts.
      {
        element: <PublicOnly />,
        children: [
          {
            element: <AuthLayout />,
            children: [
              { path: '/login', ...authPage(() => import('../routes/auth/login-code.tsx'), 'LoginCodePage') },
              {
                path: '/login-password',
                ...authPage(() => import('../routes/auth/login-password.tsx'), 'LoginPasswordPage'),
              },
              {
                path: '/signup',
                ...authPage(() => import('../routes/auth/legacy-signup.tsx'), 'LegacySignupPage'),
              },
              {
                path: '/signup-password',
                ...authPage(() => import('../routes/auth/signup-password.tsx'), 'SignupPasswordPage'),
              },
              {
                path: '/forgot-password',
                ...authPage(() => import('../routes/auth/forgot-password.tsx'), 'ForgotPasswordPage'),
              },
              {
                path: '/direct-reset-password',
                ...authPage(() => import('../routes/auth/direct-reset.tsx'), 'DirectResetPage'),
              },
            ],
          },
        ],
      },
      // Auth pages without that guard.
      {
        element: <AuthLayout />,
        children: [
          {
            path: '/reset-password',
            ...authPage(() => import('../routes/auth/reset-password.tsx'), 'ResetPasswordPage'),
          },
          {
            path: '/auth/callback',
            ...authPage(() => import('../routes/auth/auth-callback.tsx'), 'AuthCallbackPage'),
          },
          {
            path: '/auth/confirm',
            ...authPage(() => import('../routes/auth/auth-callback.tsx'), 'AuthConfirmPage'),
          },
          {
            path: '/auth-verification',
            ...authPage(() => import('../routes/auth/auth-verification.tsx'), 'AuthVerificationPage'),
          },
          {
            path: '/temp-reset',
            ...authPage(() => import('../routes/auth/temp-reset.tsx'), 'TempResetPage'),
          },
          // The invitation link: for signed-out visitors and signed-in users alike.
          {
            path: '/invite/:token',
            ...lazyPage(() => import('../routes/invite-accept.tsx'), 'InviteAcceptPage', ['teams', 'auth']),
          },
        ],
      },
      // Protected pages: a loading screen, then /login when signed out.
      {
        element: <RequireAuth />,
        children: [
          {
            // The signed-in shell (its menus, dialogs, tooltips) loads with the first protected page.
            ...lazyPage(() => import('../features/shell/app-shell.tsx'), 'AppShell', 'all'),
            children: [
              { path: '/', ...lazyPage(() => import('../routes/dashboard.tsx'), 'DashboardPage') },
              { path: '/dashboard', ...lazyPage(() => import('../routes/dashboard.tsx'), 'DashboardPage') },
              {
                path: '/prompts',
                // The list's first page loads beside the screen's code, not after it.
                ...lazyPage(
                  () => import('../routes/prompts/list.tsx'),
                  'PromptListPage',
                  [],
                  (location, queryClient) => {
                    void prefetchPromptList(queryClient, new URLSearchParams(location.search))
                  },
                ),
              },
              {
                path: '/prompts/new',
                ...lazyPage(() => import('../routes/prompts/new.tsx'), 'NewPromptPage'),
              },
              {
                path: '/prompts/:id',
                ...lazyPage(() => import('../routes/prompts/detail.tsx'), 'PromptDetailPage'),
              },
              {
                path: '/prompts/:id/edit',
                ...lazyPage(() => import('../routes/prompts/edit.tsx'), 'EditPromptPage'),
              },
              {
                path: '/conversations',
                ...lazyPage(() => import('../routes/conversations/list.tsx'), 'ConversationsPage'),
              },
              {
                path: '/conversations/:id',
                ...lazyPage(() => import('../routes/conversations/detail.tsx'), 'ConversationDetailPage'),
              },
              { path: '/team', ...lazyPage(() => import('../routes/team.tsx'), 'TeamPage') },
              {
                path: '/team/:teamId/manage',
                ...lazyPage(() => import('../routes/team-manage.tsx'), 'TeamManagePage'),
              },
              {
                path: '/settings/profile',
                ...lazyPage(() => import('../routes/settings/profile.tsx'), 'ProfileSettingsPage'),
              },
              {
                path: '/settings',
                ...lazyPage(() => import('../routes/placeholder.tsx'), 'SettingsPlaceholderPage'),
              },
              { path: '/billing', ...lazyPage(() => import('../routes/billing.tsx'), 'BillingPage') },
              {
                path: '/settings/api',
                ...lazyPage(() => import('../routes/settings/api.tsx'), 'ApiSettingsPage'),
              },
              {
                path: '/settings/webhooks',
                ...lazyPage(() => import('../routes/settings/webhooks.tsx'), 'WebhooksSettingsPage'),
              },
              {
                path: '/help',
                ...lazyPage(() => import('../routes/placeholder.tsx'), 'HelpPlaceholderPage'),
              },
              { path: '/demo', ...lazyPage(() => import('../routes/demo.tsx'), 'DemoPage') },
              // Global admins only; others go to /.
              {
                element: <RequireGlobalAdmin />,
                children: [
                  {
                    path: '/admin',
                    ...lazyPage(() => import('../routes/admin/admin-dashboard.tsx'), 'AdminDashboardPage'),
                  },
                  {
                    path: '/debug-auth',
                    ...lazyPage(() => import('../routes/admin/auth-debug.tsx'), 'DebugAuthPage'),
                  },
                  {
                    path: '/auth-test',
                    ...lazyPage(() => import('../routes/admin/auth-debug.tsx'), 'AuthTestPage'),
                  },
                  {
                    path: '/auth-debug-test',
                    ...lazyPage(() => import('../routes/admin/auth-debug.tsx'), 'AuthDebugTestPage'),
                  },
                  {
                    path: '/oauth-test',
                    ...lazyPage(() => import('../routes/admin/oauth-test.tsx'), 'OAuthTestPage'),
                  },
                  {
                    path: '/diagnosis',
                    ...lazyPage(() => import('../routes/admin/auth-debug.tsx'), 'DiagnosisPage'),
                  },
                  {
                    path: '/quick-diagnosis',
                    ...lazyPage(() => import('../routes/admin/auth-debug.tsx'), 'QuickDiagnosisPage'),
                  },
                  {
                    path: '/build-status',
                    ...lazyPage(() => import('../routes/admin/build-status.tsx'), 'BuildStatusPage'),
                  },
                  {
                    path: '/email-debug',
                    ...lazyPage(() => import('../routes/admin/email-debug.tsx'), 'EmailDebugPage'),
                  },
                  {
                    path: '/supabase-config',
                    ...lazyPage(() => import('../routes/admin/supabase-config.tsx'), 'SupabaseConfigPage'),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '/test', ...lazyPage(() => import('../routes/test-page.tsx'), 'TestPage', ['pages']) },
      { path: '/terms', ...lazyPage(() => import('../routes/legal.tsx'), 'TermsPage', ['pages']) },
      { path: '/privacy', ...lazyPage(() => import('../routes/legal.tsx'), 'PrivacyPage', ['pages']) },
      { path: '/index.html', element: <Navigate to="/" replace /> },
      { path: '*', ...lazyPage(() => import('../routes/not-found.tsx'), 'NotFoundPage', ['pages']) },
    ],
  },
]

/** Starts what every route matching `location` does on arrival: its code, texts and first data. */
export function enterRoutes(location: Pick<Location, 'pathname' | 'search'>, queryClient: QueryClient) {
  for (const { route } of matchRoutes(routes, location) ?? []) {
    ;(route.handle as RouteHandle | undefined)?.enter(location, queryClient)
  }
}

/**
 * The screen of the current location. Every matched route's code, texts and first data start
 * loading at once; a navigation keeps the previous screen until the next one can show (navigations
 * are transitions), and the first visit shows the loading screen of the `Suspense` above. A screen
 * that fails to render shows 'Something went wrong' until the location changes.
 */
export function AppRoutes() {
  const location = useLocation()
  enterRoutes(location, useQueryClient())
  const element = useRoutes(routes, location)
  return <RouteErrorBoundary location={location}>{element}</RouteErrorBoundary>
}
