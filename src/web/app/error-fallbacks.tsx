import { AlertTriangle, RefreshCw } from 'lucide-react'
import { Component, type ErrorInfo, type ReactNode, useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import type { Location } from 'react-router'
import { Button } from '../components/ui/button.tsx'
import { i18n } from '../i18n/index.ts'
import { debugLog, describeError } from '../lib/debug-log.ts'

function FallbackScreen({ title, text, action }: { title: string; text: string; action: string }) {
  return (
    <main role="alert" className="flex min-h-dvh flex-col items-center justify-center gap-4 px-6 text-center">
      <AlertTriangle aria-hidden className="size-10 text-destructive" />
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="max-w-md text-muted-foreground">{text}</p>
      <Button onClick={() => window.location.reload()}>
        <RefreshCw />
        {action}
      </Button>
    </main>
  )
}

/** A screen that failed to render: 'Something went wrong' with Refresh Page. */
function RouteErrorFallback({ error }: { error: unknown }) {
  const { t } = useTranslation('common')
  useEffect(() => {
    console.error(error)
    debugLog.error(`Screen failed: ${describeError(error)}`)
  }, [error])
  return (
    <FallbackScreen
      title={t('errors.somethingWentWrong')}
      text={t('errors.somethingWentWrongText')}
      action={t('errors.refreshPage')}
    />
  )
}

interface RouteErrorState {
  failure: { error: unknown } | null
  location: Location
}

/**
 * Around the routes: a screen that fails to render (or whose code cannot be loaded) is replaced by
 * 'Something went wrong' until the location changes.
 */
export class RouteErrorBoundary extends Component<
  { location: Location; children: ReactNode },
  RouteErrorState
> {
  override state: RouteErrorState = { failure: null, location: this.props.location }

  static getDerivedStateFromError(error: unknown) {
    return { failure: { error } }
  }

  static getDerivedStateFromProps(props: { location: Location }, state: { location: Location }) {
    // Leaving the location that failed tries again.
    return props.location === state.location ? null : { failure: null, location: props.location }
  }

  override render() {
    const { failure } = this.state
    return failure ? <RouteErrorFallback error={failure.error} /> : this.props.children
  }
}

/** The last line: the app itself failed ('Application Error' with a refresh button). */
export class RootErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack)
    debugLog.error(`Application failed: ${describeError(error)}`)
  }

  override render() {
    if (!this.state.failed) return this.props.children
    const t = i18n.getFixedT(null, 'common')
    return (
      <FallbackScreen
        title={t('errors.applicationError')}
        text={t('errors.applicationErrorText')}
        action={t('errors.refresh')}
      />
    )
  }
}
