import { useTranslation } from 'react-i18next'
import { useCopy } from '../lib/clipboard.ts'
import { Button } from './ui/button.tsx'
import { Field } from './ui/field.tsx'
import { Input } from './ui/input.tsx'

/** A labelled read-only value (a key, a signing secret) with a Copy button beside its label. */
export function CopyValue({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('common')
  const { copy, copied } = useCopy()
  return (
    <Field
      label={label}
      labelAside={
        <Button
          type="button"
          variant="outline"
          size="sm"
          onClick={() => void copy(value)}
          aria-label={`${t('copy')}: ${label}`}
        >
          {copied ? t('copied') : t('copy')}
        </Button>
      }
    >
      <Input readOnly value={value} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
    </Field>
  )
}
