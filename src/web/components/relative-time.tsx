import { useTranslation } from 'react-i18next'
import { formatNumericDateTime, formatShortDate, relativeTime } from '../../domain/time.ts'
import { currentLanguage } from '../i18n/index.ts'

/** 'just now', '5m ago', '3h ago', '2d ago', then a date; the full time in the tooltip. */
export function RelativeTime({ value }: { value: string }) {
  const { t } = useTranslation('common')
  const relative = relativeTime(value)
  const text =
    relative.unit === 'now'
      ? t('time.justNow')
      : relative.unit === 'date'
        ? formatShortDate(relative.date, currentLanguage())
        : t(`time.${relative.unit}Ago`, { count: relative.count })
  return (
    <time dateTime={value} title={formatNumericDateTime(value, currentLanguage())}>
      {text}
    </time>
  )
}
