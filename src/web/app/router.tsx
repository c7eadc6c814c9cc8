import type { QueryClient } from '@tanstack/react-query'
import { type Location, Navigate, type RouteObject, useLocation } from 'react-router'
import { PublicOnly } from '../features/auth/index.ts'
import { AuthLayout } from '../routes/auth/auth-layout.tsx'
import { RouteErrorBoundary } from './error-fallbacks.tsx'
import { enterRoutes, lazyPage, useRouteTable } from './routing.tsx'

const authPage = <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M) =>
  lazyPage(load, name, ['auth'])

const signedInRoutes = () => import('./signed-in-routes.tsx')

/** The public routes of the spec's route table: sign-in, auth callbacks, invitation, legal pages. */
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
      { path: '/test', ...lazyPage(() => import('../routes/test-page.tsx'), 'TestPage', ['pages']) },
      { path: '/terms', ...lazyPage(() => import('../routes/legal.tsx'), 'TermsPage', ['pages']) },
      { path: '/privacy', ...lazyPage(() => import('../routes/legal.tsx'), 'PrivacyPage', ['pages']) },
      { path: '/index.html', element: <Navigate to="/" replace /> },
      // Every other path: the signed-in screens and the not-found page, in a table of their own.
      {
        path: '*',
        ...lazyPage(signedInRoutes, 'SignedInRoutes', [], (location, queryClient) => {
          void signedInRoutes().then((table) => table.enterSignedInRoutes(location, queryClient))
        }),
      },
    ],
  },
]

/** Starts what every route matching `location` does on arrival: its code, texts and first data. */
export function enterAppRoutes(location: Pick<Location, 'pathname' | 'search'>, queryClient: QueryClient) {
  enterRoutes(routes, location, queryClient)
}

/**
 * The screen of the current location. Every matched route's code, texts and first data start
 * loading at once; a navigation keeps the previous screen until the next one can show (navigations
 * are transitions), and the first visit shows the loading screen of the `Suspense` above. A screen
 * that fails to render shows 'Something went wrong' until the location changes.
 */
export function AppRoutes() {
  const element = useRouteTable(routes)
  return <RouteErrorBoundary location={useLocation()}>{element}</RouteErrorBoundary>
}
