/** The audit log's filters. */
export const auditEn = {
  'audit.filterInvalid': 'This filter is not valid',
  'audit.actionInvalid': 'Unknown action',
  'audit.timeInvalid': 'Enter a date and time like 2026-11-24T09:00:00Z',
}
