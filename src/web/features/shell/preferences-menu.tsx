import { Monitor, Moon, Sun } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { type Locale, locales } from '../../../domain/messages/locales.ts'
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu.tsx'
import { currentLanguage, setLanguage } from '../../i18n/index.ts'
import { LanguageButton, ThemeButton } from './preference-buttons.tsx'
import { setTheme, type ThemePreference, useTheme } from './theme.ts'

/** Whether a switch's menu starts open (the sign-in pages' stand-in buttons were just pressed). */
interface SwitchOptions {
  defaultOpen?: boolean
}

/** `onSelect` also runs on a choice (signed in: the profile remembers it). */
export function LanguageSwitch({
  onSelect,
  defaultOpen,
}: { onSelect?: (locale: Locale) => void } & SwitchOptions = {}) {
  const { t } = useTranslation('common')
  const language = currentLanguage()
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <LanguageButton />
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

export function ThemeSwitch({
  onSelect,
  defaultOpen,
}: { onSelect?: (theme: ThemePreference) => void } & SwitchOptions = {}) {
  const { t } = useTranslation('common')
  const { preference } = useTheme()
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <ThemeButton />
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

/** Both switches, as the sign-in pages show them; `open` names the one whose menu starts open. */
export function PreferenceSwitches({ open }: { open?: 'language' | 'theme' }) {
  return (
    <>
      <LanguageSwitch defaultOpen={open === 'language'} />
      <ThemeSwitch defaultOpen={open === 'theme'} />
    </>
  )
}
