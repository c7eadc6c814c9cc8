import { Languages, Moon, Sun } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button, type ButtonProps } from '../../components/ui/button.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { useTheme } from './theme.ts'

/**
 * The language and theme switches' buttons. The menus (preferences-menu.tsx) open from them; the
 * sign-in pages show them alone until one is used (deferred-preferences.tsx).
 */
export function LanguageButton(props: ButtonProps) {
  const { t } = useTranslation('common')
  return (
    // Named 'Language: EN': the visible code is part of the name (WCAG 2.5.3, label in name).
    <Button variant="ghost" size="sm" {...props}>
      <Languages aria-hidden />
      <span className="sr-only">{t('language')}: </span>
      <span className="uppercase">{currentLanguage()}</span>
    </Button>
  )
}

export function ThemeButton(props: ButtonProps) {
  const { t } = useTranslation('common')
  const { dark } = useTheme()
  const Icon = dark ? Moon : Sun
  return (
    <Button variant="ghost" size="icon-sm" aria-label={t('theme.toggle')} {...props}>
      <Icon />
    </Button>
  )
}
