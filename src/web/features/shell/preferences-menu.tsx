import { Languages, Monitor, Moon, Sun } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { type Locale, locales } from '../../../domain/messages/index.ts'
import { Button } from '../../components/ui/button.tsx'
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu.tsx'
import { currentLanguage, setLanguage } from '../../i18n/index.ts'
import { setTheme, type ThemePreference, useTheme } from './theme.ts'

/** `onSelect` also runs on a choice (signed in: the profile remembers it). */
export function LanguageSwitch({ onSelect }: { onSelect?: (locale: Locale) => void } = {}) {
  const { t } = useTranslation('common')
  const language = currentLanguage()
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        {/* Named 'Language: EN': the visible code is part of the name (WCAG 2.5.3, label in name). */}
        <Button variant="ghost" size="sm">
          <Languages aria-hidden />
          <span className="sr-only">{t('language')}: </span>
          <span className="uppercase">{language}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {locales.map((locale: Locale) => (
          <DropdownMenuCheckboxItem
            key={locale}
            checked={locale === language}
            onSelect={() => {
              void setLanguage(locale)
              onSelect?.(locale)
            }}
          >
            {t(`languages.${locale}`)}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}

const themeIcons = { system: Monitor, light: Sun, dark: Moon } as const

export function ThemeSwitch({ onSelect }: { onSelect?: (theme: ThemePreference) => void } = {}) {
  const { t } = useTranslation('common')
  const { preference, dark } = useTheme()
  const Icon = dark ? Moon : Sun
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon-sm" aria-label={t('theme.toggle')}>
          <Icon />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        {(['system', 'light', 'dark'] as ThemePreference[]).map((option) => {
          const OptionIcon = themeIcons[option]
          return (
            <DropdownMenuCheckboxItem
              key={option}
              checked={preference === option}
              onSelect={() => {
                setTheme(option)
                onSelect?.(option)
              }}
            >
              <OptionIcon />
              {t(`theme.${option}`)}
            </DropdownMenuCheckboxItem>
          )
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
