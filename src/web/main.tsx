import './styles/app.css'
import './features/shell/theme.ts'
import { StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { RootErrorBoundary } from './app/error-fallbacks.tsx'
import { createQueryClient, Providers } from './app/providers.tsx'
import { createRouter } from './app/router.tsx'
import { sessionQuery } from './features/auth/session.ts'
import { LoadingScreen } from './features/shell/loading-screen.tsx'
import { initI18n } from './i18n/index.ts'

// The router starts loading the first page's code and texts while the base catalogs arrive.
const ready = initI18n()
const queryClient = createQueryClient()
// Every page asks who is signed in: the question leaves now, not once the page's code has arrived.
void queryClient.prefetchQuery(sessionQuery)
const router = createRouter(queryClient)
await ready

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RootErrorBoundary>
      <Providers queryClient={queryClient}>
        {/* Texts a screen asks for beyond its route's namespaces arrive under this. */}
        <Suspense fallback={<LoadingScreen />}>
          <RouterProvider router={router} />
        </Suspense>
      </Providers>
    </RootErrorBoundary>
  </StrictMode>,
)
