import type { ReactNode } from 'react'
import { Outlet } from 'react-router'
import { Card } from '../../components/ui/card.tsx'
import { DeferredPreferenceSwitches, Logo } from '../../features/shell/index.ts'

/** The frame of every sign-in page: logo, language and theme switches, a centred card. */
export function AuthLayout() {
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-accent/40 to-background">
      <header className="flex items-center justify-between px-4 py-3 sm:px-8">
        <Logo />
        <div className="flex items-center gap-1">
          <DeferredPreferenceSwitches />
        </div>
      </header>
      <main
        id="main"
        className="flex flex-1 items-start justify-center px-4 pt-6 pb-16 sm:items-center sm:pt-0"
      >
        <Outlet />
      </main>
    </div>
  )
}

export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: ReactNode
  subtitle?: ReactNode
  children: ReactNode
  footer?: ReactNode
}) {
  return (
    <Card className="w-full max-w-md p-6 shadow-md sm:p-8">
      <div className="mb-6 space-y-1.5">
        <h1 className="text-2xl font-semibold tracking-tight wrap-anywhere">{title}</h1>
        {subtitle && <p className="text-sm text-muted-foreground">{subtitle}</p>}
      </div>
      {children}
      {footer && <div className="mt-6 border-t pt-4 text-center text-sm text-muted-foreground">{footer}</div>}
    </Card>
  )
}
