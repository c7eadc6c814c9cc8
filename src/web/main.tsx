import './styles/app.css'
import './features/shell/theme.ts'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { RouterProvider } from 'react-router'
import { RootErrorBoundary } from './app/error-fallbacks.tsx'
import { createQueryClient, Providers } from './app/providers.tsx'
import { createRouter } from './app/router.tsx'
import { initI18n } from './i18n/index.ts'

initI18n()
const queryClient = createQueryClient()
const router = createRouter()

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RootErrorBoundary>
      <Providers queryClient={queryClient}>
        <RouterProvider router={router} />
      </Providers>
    </RootErrorBoundary>
  </StrictMode>,
)
