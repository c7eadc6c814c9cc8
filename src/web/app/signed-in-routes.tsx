import type { QueryClient } from '@tanstack/react-query'
import type { Location, RouteObject } from 'react-router'
import { RequireAuth, RequireGlobalAdmin } from '../features/auth/index.ts'
import { conversationQuery, messagesQuery } from '../features/conversations/index.ts'
import { promptQuery, promptVersionsQuery } from '../features/prompts/index.ts'
import { enterRoutes, lazyPage, useRouteTable } from './routing.tsx'

async function prefetchPromptList(queryClient: QueryClient, params: URLSearchParams) {
  const [{ prefetchPromptList: prefetch }, { listFiltersOf }] = await Promise.all([
    import('../features/prompts/lazy.ts'),
    import('../lib/list-filters.ts'),
  ])
  prefetch(queryClient, listFiltersOf(params, { folders: true }))
}

/** Side by side, and before the screen's code: the screen asks for the messages only once it has the conversation. */
function prefetchConversation(queryClient: QueryClient, id: string) {
  void queryClient.prefetchQuery(conversationQuery(id))
  void queryClient.prefetchInfiniteQuery(messagesQuery(id))
}

/** The same for a prompt: the screen asks for its history only once it has the prompt. */
function prefetchPrompt(queryClient: QueryClient, id: string) {
  void queryClient.prefetchQuery(promptQuery(id))
  void queryClient.prefetchInfiniteQuery(promptVersionsQuery(id))
}

/**
 * Every path that is not a public one (router.tsx): the signed-in screens with their guards, and
 * the not-found page for any other path. A sign-in page never downloads this table, nor the names
 * of the chunks its screens preload.
 */
const signedInRoutes: RouteObject[] = [
  // Protected pages: a loading screen, then /login when signed out.
  {
    element: <RequireAuth />,
    children: [
      {
        // The signed-in shell (its menus, dialogs, tooltips) loads with the first protected page.
        ...lazyPage(() => import('../features/shell/lazy.ts'), 'AppShell', 'all'),
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
            // The prompt and its newest versions load beside the screen's code.
            ...lazyPage(
              () => import('../routes/prompts/detail.tsx'),
              'PromptDetailPage',
              [],
              (_, queryClient, { id }) => {
                if (id) prefetchPrompt(queryClient, id)
              },
            ),
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
            // The conversation and its newest messages load beside the screen's code.
            ...lazyPage(
              () => import('../routes/conversations/detail.tsx'),
              'ConversationDetailPage',
              [],
              (_, queryClient, { id }) => {
                if (id) prefetchConversation(queryClient, id)
              },
            ),
          },
          { path: '/team', ...lazyPage(() => import('../routes/team.tsx'), 'TeamPage') },
          {
            path: '/team/:teamId/manage',
            ...lazyPage(() => import('../routes/team-manage.tsx'), 'TeamManagePage'),
          },
          { path: '/billing', ...lazyPage(() => import('../routes/billing.tsx'), 'BillingPage') },
          {
            // Every settings page under one sub-navigation.
            ...lazyPage(() => import('../routes/settings/settings-nav.tsx'), 'SettingsLayout'),
            children: [
              {
                path: '/settings',
                ...lazyPage(() => import('../routes/settings/hub.tsx'), 'SettingsHubPage'),
              },
              {
                path: '/settings/profile',
                ...lazyPage(() => import('../routes/settings/profile.tsx'), 'ProfileSettingsPage'),
              },
              {
                path: '/settings/api',
                ...lazyPage(() => import('../routes/settings/api.tsx'), 'ApiSettingsPage'),
              },
              {
                path: '/settings/webhooks',
                ...lazyPage(() => import('../routes/settings/webhooks.tsx'), 'WebhooksSettingsPage'),
              },
              {
                path: '/settings/models',
                ...lazyPage(() => import('../routes/settings/models.tsx'), 'ModelsSettingsPage'),
              },
              {
                path: '/settings/data',
                ...lazyPage(() => import('../routes/settings/data.tsx'), 'DataSettingsPage'),
              },
            ],
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
                ...lazyPage(() => import('../routes/admin/mail-auth-setup.tsx'), 'MailAuthSetupPage'),
              },
            ],
          },
        ],
      },
    ],
  },
  { path: '*', ...lazyPage(() => import('../routes/not-found.tsx'), 'NotFoundPage', ['pages']) },
]

export function enterSignedInRoutes(
  location: Pick<Location, 'pathname' | 'search'>,
  queryClient: QueryClient,
) {
  enterRoutes(signedInRoutes, location, queryClient)
}

export function SignedInRoutes() {
  return useRouteTable(signedInRoutes)
}
