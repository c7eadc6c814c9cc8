import type { plansEn } from '../en/plans.ts'

/** Tarife, Testphase und Paywall. */
export const plansDe: Record<keyof typeof plansEn, string> = {
  'plans.paymentRequired':
    'Deine 14-tägige Testphase ist abgelaufen. Um weiterhin Prompts zu erstellen oder zu bearbeiten, wähle bitte einen Tarif.',
  'plans.paymentRequiredTeam':
    'Die 14-tägige Testphase dieses Teams ist abgelaufen. Um weiterhin Prompts des Teams zu erstellen oder zu bearbeiten, muss ein Team-Admin einen Tarif wählen.',
  'plans.promptLimitReached':
    'Du hast das Limit von {max} Prompts deines Tarifs erreicht. Wähle einen größeren Tarif, um weitere zu erstellen.',
  'plans.promptLimitReachedTeam':
    'Dieses Team hat das Limit von {max} Prompts seines Tarifs erreicht. Ein Team-Admin kann einen größeren Tarif wählen.',
  'plans.memberLimitReached':
    'Dieses Team hat sein Limit von {max} Mitgliedern erreicht (offene Einladungen mitgezählt). Ein Team-Admin kann einen größeren Tarif wählen.',
  'plans.apiAccessLocked':
    'API-Zugriff ist in deinem Tarif nicht enthalten. Wähle einen Tarif mit API-Zugriff, um ihn zu nutzen.',
  'plans.webhooksLocked':
    'Webhooks sind in deinem Tarif nicht enthalten. Wähle einen Tarif mit Webhooks, um sie zu nutzen.',
  'plans.checkFailed':
    'Dein Tarif konnte nicht geprüft werden, daher wurde nichts gespeichert. Bitte versuche es erneut.',
  'plans.planInvalid': 'Wähle Free, Pro oder Team',
  'plans.planNotOffered': 'Dieser Tarif ist hier nicht verfügbar',
  'plans.contextInvalid': 'Kontext muss persönlich oder Team sein',
  'plans.subjectNotFound': 'Kein solcher Benutzer und kein solches Team',
  'plans.statusInvalid': 'Status muss offen, gewährt oder storniert sein',
  'plans.alreadyOnPlan': 'Dieser Tarif ist bereits aktiv',
  'plans.requestNotFound': 'Tarifanfrage nicht gefunden',
  'plans.requestNotPending': 'Diese Anfrage ist nicht mehr offen',
  'plans.mail.grantedSubject': 'Dein Promptfolio-Tarif ist aktiv',
  'plans.mail.grantedBody': 'Der von dir angefragte Tarif {plan} ist jetzt aktiv.',
  'plans.mail.detailSpace': 'Bereich',
  'plans.mail.action': 'Abrechnung öffnen',
  'plans.name.free': 'Kostenlos',
  'plans.name.pro': 'Profi',
  'plans.name.team': 'Team',
}
