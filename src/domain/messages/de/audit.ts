import type { auditEn } from '../en/audit.ts'

/** Die Filter des Audit-Logs. */
export const auditDe: Record<keyof typeof auditEn, string> = {
  'audit.filterInvalid': 'Dieser Filter ist ungültig',
  'audit.actionInvalid': 'Unbekannte Aktion',
  'audit.timeInvalid': 'Gib Datum und Uhrzeit wie 2026-11-24T09:00:00Z ein',
}
