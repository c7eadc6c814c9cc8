import type { ComponentType } from 'react'
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router'
import { PublicOnly, RequireAuth, RequireGlobalAdmin } from '../features/auth/guards.tsx'
import { AppShell } from '../features/shell/app-shell.tsx'
import { LoadingScreen } from '../features/shell/loading-screen.tsx'
import { AuthLayout } from '../routes/auth/auth-layout.tsx'
import { NotImplementedPage, type ScreenKey, ScreenPlaceholder } from '../routes/placeholder.tsx'
import { RouteErrorFallback } from './error-fallbacks.tsx'

/** A lazily loaded screen module: `lazyPage(() => import('../routes/x.tsx'), 'XPage')`. */
function lazyPage<M extends Record<string, unknown>>(
  load: () => Promise<M>,
  name: keyof M,
): Pick<RouteObject, 'lazy'> {
  return { lazy: async () => ({ Component: (await load())[name] as ComponentType }) }
}

const placeholder = (screen: ScreenKey) => <ScreenPlaceholder screen={screen} />
const notImplemented = (screen: ScreenKey) => <NotImplementedPage screen={screen} />

/** The spec's route table (§2) with its guards. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorFallback />,
    hydrateFallbackElement: <LoadingScreen />,
    children: [
      // Public auth pages: a signed-in visitor goes to /prompts.
      {
        element: <PublicOnly />,
        children: [
          {
            element: <AuthLayout />,
            children: [
              { path: '/login', ...lazyPage(() => import('../routes/auth/login-code.tsx'), 'LoginCodePage') },
              {
                path: '/login-password',
                ...lazyPage(() => import('../routes/auth/login-password.tsx'), 'LoginPasswordPage'),
              },
              {
                path: '/signup',
                ...lazyPage(() => import('../routes/auth/legacy-signup.tsx'), 'LegacySignupPage'),
              },
              {
                path: '/signup-password',
                ...lazyPage(() => import('../routes/auth/signup-password.tsx'), 'SignupPasswordPage'),
              },
              { path: '/forgot-password', element: placeholder('forgotPassword') },
              { path: '/direct-reset-password', element: placeholder('directResetPassword') },
            ],
          },
        ],
      },
      // Auth pages without that guard.
      {
        element: <AuthLayout />,
        children: [
          { path: '/reset-password', element: placeholder('resetPassword') },
          { path: '/auth/callback', element: placeholder('authCallback') },
          { path: '/auth/confirm', element: placeholder('authConfirm') },
          { path: '/auth-verification', element: placeholder('authVerification') },
          { path: '/temp-reset', element: placeholder('tempReset') },
        ],
      },
      // Protected pages: a loading screen, then /login when signed out.
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppShell />,
            children: [
              { path: '/', ...lazyPage(() => import('../routes/dashboard.tsx'), 'DashboardPage') },
              { path: '/dashboard', ...lazyPage(() => import('../routes/dashboard.tsx'), 'DashboardPage') },
              { path: '/prompts', ...lazyPage(() => import('../routes/prompts/list.tsx'), 'PromptListPage') },
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
              { path: '/team', element: placeholder('team') },
              { path: '/team/:teamId/manage', element: placeholder('teamManage') },
              { path: '/settings/profile', element: placeholder('profile') },
              { path: '/settings', element: notImplemented('settings') },
              { path: '/billing', element: notImplemented('billing') },
              { path: '/settings/api', element: notImplemented('settingsApi') },
              { path: '/settings/webhooks', element: notImplemented('settingsWebhooks') },
              { path: '/help', element: notImplemented('help') },
              // Global admins only; others go to /.
              {
                element: <RequireGlobalAdmin />,
                children: [
                  { path: '/admin', element: placeholder('admin') },
                  { path: '/debug-auth', element: placeholder('debugAuth') },
                  { path: '/auth-test', element: placeholder('authTest') },
                  { path: '/auth-debug-test', element: placeholder('authDebugTest') },
                  { path: '/oauth-test', element: placeholder('oauthTest') },
                  { path: '/diagnosis', element: placeholder('diagnosis') },
                  { path: '/quick-diagnosis', element: placeholder('quickDiagnosis') },
                  { path: '/build-status', element: placeholder('buildStatus') },
                  { path: '/email-debug', element: placeholder('emailDebug') },
                  { path: '/supabase-config', element: placeholder('supabaseConfig') },
                ],
              },
            ],
          },
        ],
      },
      { path: '/test', ...lazyPage(() => import('../routes/test-page.tsx'), 'TestPage') },
      { path: '/terms', ...lazyPage(() => import('../routes/legal.tsx'), 'TermsPage') },
      { path: '/privacy', ...lazyPage(() => import('../routes/legal.tsx'), 'PrivacyPage') },
      { path: '/index.html', element: <Navigate to="/" replace /> },
      { path: '*', ...lazyPage(() => import('../routes/not-found.tsx'), 'NotFoundPage') },
    ],
  },
]

export function createRouter() {
  return createBrowserRouter(routes)
}
