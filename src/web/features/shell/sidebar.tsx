import {
  CreditCard,
  LayoutDashboard,
  LogOut,
  MessagesSquare,
  ScrollText,
  Settings,
  ShieldCheck,
  UserCog,
  Users,
} from 'lucide-react'
import type { ComponentType } from 'react'
import { useTranslation } from 'react-i18next'
import { NavLink } from 'react-router'
import { cn } from '../../lib/cn.ts'
import { useCurrentUser, useSignOutAndLeave } from '../auth/index.ts'
import { useMyTeams } from '../teams/index.ts'
import { Logo } from './logo.tsx'

interface NavItem {
  to: string
  label: string
  icon: ComponentType<{ className?: string }>
  end?: boolean
}

function NavSection({
  label,
  items,
  onNavigate,
}: {
  label?: string
  items: NavItem[]
  onNavigate?: () => void
}) {
  return (
    <div className="space-y-1">
      {label && (
        <p className="px-3 pt-4 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
          {label}
        </p>
      )}
      <ul className="space-y-0.5">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              to={item.to}
              end={item.end}
              onClick={onNavigate}
              title={item.label}
              className={({ isActive }) =>
                cn(
                  'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium transition-colors',
                  isActive
                    ? 'bg-accent text-accent-foreground'
                    : 'text-muted-foreground hover:bg-muted hover:text-foreground',
                )
              }
            >
              <item.icon className="size-4 shrink-0" />
              <span className="line-clamp-2 wrap-anywhere">{item.label}</span>
            </NavLink>
          </li>
        ))}
      </ul>
    </div>
  )
}

export function Sidebar({ onNavigate }: { onNavigate?: () => void }) {
  const { t } = useTranslation('shell')
  const user = useCurrentUser()
  const { signOut } = useSignOutAndLeave()
  const { data: teams } = useMyTeams()

  const main: NavItem[] = [
    { to: '/dashboard', label: t('nav.dashboard'), icon: LayoutDashboard },
    { to: '/prompts', label: t('nav.prompts'), icon: ScrollText },
    { to: '/conversations', label: t('nav.conversations'), icon: MessagesSquare },
    { to: '/team', label: t('nav.team'), icon: Users, end: true },
    { to: '/billing', label: t('nav.billing'), icon: CreditCard },
    { to: '/settings', label: t('nav.settings'), icon: Settings },
  ]
  const managed: NavItem[] = (teams ?? [])
    .filter((team) => team.isAdmin)
    .map((team) => ({
      to: `/team/${team.id}/manage`,
      label: t('nav.manageTeam', { name: team.name }),
      icon: UserCog,
    }))
  const admin: NavItem[] = [{ to: '/admin', label: t('nav.adminDashboard'), icon: ShieldCheck }]

  return (
    <div className="flex h-full flex-col bg-sidebar">
      <div className="flex h-14 items-center border-b px-4">
        <Logo />
      </div>
      <nav aria-label={t('nav.main')} className="flex-1 overflow-y-auto p-3">
        <NavSection items={main} onNavigate={onNavigate} />
        {managed.length > 0 && (
          <NavSection label={t('nav.teamManagement')} items={managed} onNavigate={onNavigate} />
        )}
        {user.globalRole === 'global_admin' && (
          <NavSection label={t('nav.globalAdmin')} items={admin} onNavigate={onNavigate} />
        )}
      </nav>
      <div className="border-t p-3">
        <button
          type="button"
          onClick={() => signOut()}
          className="flex w-full cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
        >
          <LogOut className="size-4" />
          {t('nav.signout')}
        </button>
      </div>
    </div>
  )
}
