import { Check, Copy } from 'lucide-react'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Button, type ButtonProps } from '../../components/ui/button.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { useCopy } from '../../lib/clipboard.ts'

/** What is being copied; it picks the spec's failure message. */
type CopyKind = 'prompt' | 'version' | 'content' | 'markdown'

interface CopyButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  /**
   * The text, or a function making it at click time (the Markdown export of a form, or a version's
   * body fetched on demand).
   */
  text: string | (() => string | Promise<string>)
  kind: CopyKind
  label?: ReactNode
  icon?: ReactNode
}

/**
 * Copies with the clipboard first and a fallback second, says 'Copied!' for 2 s, and tells the user
 * when copying failed.
 */
export function CopyButton({
  text,
  kind,
  label,
  icon,
  variant = 'outline',
  size = 'sm',
  ...props
}: CopyButtonProps) {
  const { t } = useTranslation('prompts')
  const { copy, copied } = useCopy()
  const onClick = async () => {
    try {
      const ok = await copy(typeof text === 'function' ? text() : text)
      if (!ok) toast({ title: t(`copy.failed.${kind}`), tone: 'error' })
    } catch {
      toast({ title: t(`copy.error.${kind}`), tone: 'error' })
    }
  }
  return (
    <Button variant={variant} size={size} onClick={onClick} {...props}>
      {copied ? <Check aria-hidden /> : (icon ?? <Copy aria-hidden />)}
      <span aria-live="polite">{copied ? t('copy.copied') : (label ?? t('copy.copy'))}</span>
    </Button>
  )
}
