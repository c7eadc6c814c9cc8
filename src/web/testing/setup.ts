import { cleanup } from '@testing-library/react'
import { afterEach, beforeAll, vi } from 'vitest'
import { removeToast } from '../components/ui/toast.tsx'
import { initI18n, loadNamespaces } from '../i18n/index.ts'

// Every catalog in English, as a signed-in screen has them: texts are asserted as the user reads them.
beforeAll(async () => {
  localStorage.setItem('promptfolio.lang', 'en')
  await initI18n()
  await loadNamespaces('all')
})

afterEach(() => {
  cleanup()
  removeToast()
  vi.unstubAllGlobals()
})
