import { LogOut, Menu, UserRound } from 'lucide-react'
import { Dialog as DialogPrimitive } from 'radix-ui'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, Outlet } from 'react-router'
import { initialsOf } from '../../../domain/people.ts'
import { Button } from '../../components/ui/button.tsx'
import { DialogLayer, useReturnFocus } from '../../components/ui/dialog.tsx'
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu.tsx'
import { TooltipProvider } from '../../components/ui/tooltip.tsx'
import { useCurrentUser, useSignOutAndLeave } from '../auth/index.ts'
import { ProfilePreferences, useUpdateProfile } from '../profile/index.ts'
import { StepUpProvider } from '../step-up/index.ts'
import { Logo } from './logo.tsx'
import { LanguageSwitch, ThemeSwitch } from './preferences-menu.tsx'
import { Sidebar } from './sidebar.tsx'

function AvatarMenu() {
  const { t } = useTranslation('shell')
  const user = useCurrentUser()
  const { signOut } = useSignOutAndLeave()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* The initials are a picture of the user; the button's name says what it opens. */}
        <button
          type="button"
          className="flex size-9 cursor-pointer items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground uppercase shadow-sm"
        >
          <span aria-hidden>{initialsOf(user.email)}</span>
          <span className="sr-only">{t('accountMenu')}</span>
        </button>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-60">
        <DropdownMenuLabel className="truncate">{user.name || user.email}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/settings/profile">
            <UserRound />
            {t('profile')}
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => signOut()}>
          <LogOut />
          {t('signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

/** Sidebar (a drawer on small screens), top bar, and the page. */
export function AppShell() {
  const { t } = useTranslation('shell')
  const [drawerOpen, setDrawerOpen] = useState(false)
  const drawerFocus = useReturnFocus()
  const updateProfile = useUpdateProfile()
  // Tooltips only appear on signed-in screens: their provider comes with the shell.
  return (
    <TooltipProvider delayDuration={300}>
      <div className="min-h-dvh lg:grid lg:grid-cols-[15rem_1fr]">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-card px-3 py-2 shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          {t('skipToContent')}
        </a>
        <aside className="sticky top-0 hidden h-dvh border-r lg:block">
          <Sidebar />
        </aside>
        <DialogPrimitive.Root open={drawerOpen} onOpenChange={setDrawerOpen}>
          <DialogPrimitive.Portal>
            <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/40 lg:hidden" />
            <DialogPrimitive.Content
              aria-describedby={undefined}
              onCloseAutoFocus={drawerFocus.onCloseAutoFocus}
              className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] border-r shadow-xl data-[state=open]:animate-[pf-fade-in_120ms_ease-out] lg:hidden"
            >
              <DialogPrimitive.Title className="sr-only">{t('nav.main')}</DialogPrimitive.Title>
              <Sidebar onNavigate={() => setDrawerOpen(false)} />
              <DialogLayer close={() => setDrawerOpen(false)} returnFocus={drawerFocus.returnFocus} />
            </DialogPrimitive.Content>
          </DialogPrimitive.Portal>
        </DialogPrimitive.Root>
        <ProfilePreferences />
        <div className="flex min-w-0 flex-col">
          <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b bg-background/85 px-3 backdrop-blur sm:px-6">
            <Button
              variant="ghost"
              size="icon-sm"
              className="lg:hidden"
              aria-label={t('openMenu')}
              onClick={() => setDrawerOpen(true)}
            >
              <Menu />
            </Button>
            <Logo className="lg:hidden" />
            <div className="flex-1" />
            <LanguageSwitch onSelect={(locale) => updateProfile.mutate({ locale })} />
            <ThemeSwitch onSelect={(theme) => updateProfile.mutate({ theme })} />
            <AvatarMenu />
          </header>
          <main
            id="main"
            tabIndex={-1}
            className="mx-auto w-full max-w-6xl flex-1 px-4 py-6 outline-none sm:px-6 lg:py-8"
          >
            <StepUpProvider>
              <Outlet />
            </StepUpProvider>
          </main>
        </div>
      </div>
    </TooltipProvider>
  )
}
