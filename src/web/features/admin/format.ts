import type { TFunction } from 'i18next'

/** Seconds as 'd h min' in the reader's language. */
export function formatUptime(seconds: number, t: TFunction<'admin'>): string {
  const days = Math.floor(seconds / 86_400)
  const hours = Math.floor((seconds % 86_400) / 3600)
  const minutes = Math.floor((seconds % 3600) / 60)
  return t('health.uptimeValue', { days, hours, minutes })
}
