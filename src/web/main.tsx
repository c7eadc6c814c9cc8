import './styles/app.css'
import { StrictMode, Suspense } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router'
import { RootErrorBoundary } from './app/error-fallbacks.tsx'
import { createQueryClient, Providers } from './app/providers.tsx'
import { AppRoutes, enterAppRoutes } from './app/router.tsx'
import { sessionQuery } from './features/auth/index.ts'
import { followTheme, LoadingScreen } from './features/shell/index.ts'
import { initI18n } from './i18n/index.ts'
import { captureUncaughtErrors } from './lib/debug-log.ts'

// The saved theme at once (public/boot.js set it before this script), then the system's changes.
followTheme()
// From the first moment: what fails before the app is up belongs in the debug log too.
captureUncaughtErrors()

const ready = initI18n()
const queryClient = createQueryClient()
// Every page asks who is signed in: the question leaves now, not once the page's code has arrived.
void queryClient.prefetchQuery(sessionQuery)
// The first screen's code, texts and data start loading while the base catalogs arrive.
enterAppRoutes(window.location, queryClient)
await ready

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RootErrorBoundary>
      <Providers queryClient={queryClient}>
        <BrowserRouter>
          {/* The first screen's code and texts arrive under this, and the texts a screen asks for beyond its route's namespaces. */}
          <Suspense fallback={<LoadingScreen />}>
            <AppRoutes />
          </Suspense>
        </BrowserRouter>
      </Providers>
    </RootErrorBoundary>
  </StrictMode>,
)
