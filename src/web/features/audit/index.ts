/** What other screens use of the audit feature: the self-contained panel. */
export { AuditLogPanel } from './AuditLogPanel.tsx'
