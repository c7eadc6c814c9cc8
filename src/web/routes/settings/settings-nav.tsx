import { useTranslation } from 'react-i18next'
import { NavLink, Outlet } from 'react-router'
import { cn } from '../../lib/cn.ts'

/** The settings pages, in the order the sub-navigation and the hub list them. */
const settingsPages = [
  { to: '/settings', key: 'overview', end: true },
  { to: '/settings/profile', key: 'profile', end: false },
  { to: '/settings/api', key: 'apiKeys', end: false },
  { to: '/settings/webhooks', key: 'webhooks', end: false },
  { to: '/settings/models', key: 'models', end: false },
  { to: '/settings/data', key: 'data', end: false },
] as const

/**
 * Every settings page sits under one sub-navigation, so a page reached from anywhere (the avatar
 * menu, a prompt's API Access hint) shows the others. NavLink marks the active entry with
 * aria-current="page".
 */
export function SettingsLayout() {
  const { t } = useTranslation('account')
  return (
    <>
      <nav aria-label={t('settings.nav')} className="mb-6 overflow-x-auto border-b">
        <ul className="flex min-w-max gap-1">
          {settingsPages.map((page) => (
            <li key={page.to}>
              <NavLink
                to={page.to}
                end={page.end}
                className={({ isActive }) =>
                  cn(
                    '-mb-px inline-flex border-b-2 px-3 py-2 text-sm font-medium transition-colors',
                    isActive
                      ? 'border-primary text-foreground'
                      : 'border-transparent text-muted-foreground hover:text-foreground',
                  )
                }
              >
                {t(`settings.pages.${page.key}`)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <Outlet />
    </>
  )
}
