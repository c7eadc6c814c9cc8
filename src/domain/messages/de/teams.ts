import type { teamsEn } from '../en/teams.ts'

export const teamsDe: Record<keyof typeof teamsEn, string> = {
  'teams.nameRequired': 'Teamname ist erforderlich',
  'teams.nameTooLong': 'Teamname darf höchstens 100 Zeichen haben',
  'teams.nameOneLine': 'Der Teamname muss eine einzelne Textzeile sein',
  'teams.roleInvalid': 'Rolle muss Admin oder Mitglied sein',
  'teams.inviteEmailRequired': 'Bitte gib eine E-Mail-Adresse ein',
  'teams.notFound': 'Team nicht gefunden oder Zugriff verweigert',
  'teams.onlyAdminsInvite': 'Nur Team-Admins können Mitglieder einladen',
  'teams.onlyAdminsUpdateRoles': 'Nur Team-Admins können Rollen von Mitgliedern ändern',
  'teams.onlyAdminsRemove': 'Nur Team-Admins können Mitglieder entfernen',
  'teams.cannotRemoveSelf': 'Du kannst dich nicht selbst aus dem Team entfernen',
  'teams.notAMember': 'Kein Mitglied dieses Teams',
  'teams.cannotLeaveOnlyAdmin': 'Du kannst das Team als einziger Admin nicht verlassen',
  'teams.lastAdminRequired':
    'Ein Team braucht mindestens einen Admin. Mache zuerst ein anderes Mitglied zum Admin.',
  'teams.invitationInvalid': 'Ungültige oder abgelaufene Einladung',
  'teams.invitationExpired': 'Die Einladung ist abgelaufen',
  'teams.invitationWrongEmail': 'Die Einladung gilt für eine andere E-Mail-Adresse',
  'teams.alreadyMember': 'Bereits Mitglied dieses Teams',
  'teams.alreadyInvited': 'Diese Person wurde bereits in dieses Team eingeladen',
  'teams.invitationNotPending':
    'Nur ausstehende oder abgelaufene Einladungen können erneut gesendet oder widerrufen werden',
  'teams.teamAdminRequired': 'Zugriff nur für Team-Admins',
  'teams.tooManyInvitations':
    'Zu viele Einladungen gesendet. Bitte warte {seconds} Sekunden, bevor du es erneut versuchst.',
  'teams.recipientInvitedTooOften':
    'Diese Adresse hat heute zu viele Einladungen erhalten. Bitte versuche es morgen erneut.',
  'teams.mail.subject': 'Einladung in ein Team auf Promptfolio',
  'teams.mail.body': 'Jemand auf Promptfolio hat dich in sein Team eingeladen. Die Einladung lautet:',
  'teams.mail.detailTeam': 'Team',
  'teams.mail.detailInviter': 'Eingeladen von',
  'teams.mail.detailRole': 'Rolle',
  'teams.mail.action': 'Einladung annehmen',
  'teams.mail.accountHint':
    'Melde dich mit {email} an oder erstelle ein Konto mit dieser Adresse, um die Einladung anzunehmen. Der Link ist {days} Tage gültig.',
  'teams.mail.ignore':
    'Du hast diese Einladung nicht erwartet? Dann ignoriere diese E-Mail: Ohne deine Zustimmung passiert nichts.',
  'teams.mail.keysSubject': 'API-Schlüssel deines Teams zur Prüfung',
  'teams.mail.keysBody':
    'Jemand, der API-Schlüssel für dein Team erstellt hat, ist kein Admin des Teams mehr. Die Schlüssel funktionieren weiter für das Team, und diese Person kennt möglicherweise noch ihre Geheimnisse. Prüfe sie und widerrufe die, die das Team nicht braucht:',
  'teams.mail.detailFormerAdmin': 'Ehemaliger Admin',
  'teams.mail.detailKey': 'Schlüssel',
  'teams.mail.keysAction': 'API-Schlüssel prüfen',
  'teams.role.admin': 'Admin',
  'teams.role.member': 'Mitglied',
  'teams.membersAccessDenied': 'Zugriff auf Teammitglieder verweigert',
  'teams.invitationsAccessDenied': 'Zugriff auf Team-Einladungen verweigert',
  'teams.cannotManageRoles': 'Rollen dieses Teams können nicht verwaltet werden',
  'teams.ownRolesOnly': 'Nur die eigenen Teamrollen können angezeigt werden',
  'teams.fetchFailed': 'Teams konnten nicht abgerufen werden',
  'teams.assignRoleFailed': 'Teamrolle konnte nicht zugewiesen werden',
}
