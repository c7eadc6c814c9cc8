import type { Locale } from '../../domain/messages/index.ts'
import deAccount from './locales/de/account.json'
import deAdmin from './locales/de/admin.json'
import deAudit from './locales/de/audit.json'
import deAuth from './locales/de/auth.json'
import deCommon from './locales/de/common.json'
import deConversations from './locales/de/conversations.json'
import deCraft from './locales/de/craft.json'
import deDashboard from './locales/de/dashboard.json'
import deDiagnostics from './locales/de/diagnostics.json'
import deMail from './locales/de/mail.json'
import deModels from './locales/de/models.json'
import dePages from './locales/de/pages.json'
import dePlans from './locales/de/plans.json'
import dePrompts from './locales/de/prompts.json'
import dePublicApi from './locales/de/publicApi.json'
import deShell from './locales/de/shell.json'
import deTeams from './locales/de/teams.json'
import deWebhooks from './locales/de/webhooks.json'
import enAccount from './locales/en/account.json'
import enAdmin from './locales/en/admin.json'
import enAudit from './locales/en/audit.json'
import enAuth from './locales/en/auth.json'
import enCommon from './locales/en/common.json'
import enConversations from './locales/en/conversations.json'
import enCraft from './locales/en/craft.json'
import enDashboard from './locales/en/dashboard.json'
import enDiagnostics from './locales/en/diagnostics.json'
import enMail from './locales/en/mail.json'
import enModels from './locales/en/models.json'
import enPages from './locales/en/pages.json'
import enPlans from './locales/en/plans.json'
import enPrompts from './locales/en/prompts.json'
import enPublicApi from './locales/en/publicApi.json'
import enShell from './locales/en/shell.json'
import enTeams from './locales/en/teams.json'
import enWebhooks from './locales/en/webhooks.json'

/** UI texts per namespace. Messages shared with the server live in src/domain/messages. */
const en = {
  common: enCommon,
  auth: enAuth,
  shell: enShell,
  pages: enPages,
  account: enAccount,
  mail: enMail,
  diagnostics: enDiagnostics,
  prompts: enPrompts,
  conversations: enConversations,
  teams: enTeams,
  plans: enPlans,
  dashboard: enDashboard,
  publicApi: enPublicApi,
  admin: enAdmin,
  audit: enAudit,
  webhooks: enWebhooks,
  craft: enCraft,
  models: enModels,
}
const de: typeof en = {
  common: deCommon,
  auth: deAuth,
  shell: deShell,
  pages: dePages,
  account: deAccount,
  mail: deMail,
  diagnostics: deDiagnostics,
  prompts: dePrompts,
  conversations: deConversations,
  teams: deTeams,
  plans: dePlans,
  dashboard: deDashboard,
  publicApi: dePublicApi,
  admin: deAdmin,
  audit: deAudit,
  webhooks: deWebhooks,
  craft: deCraft,
  models: deModels,
}

export const resources: Record<Locale, typeof en> = { en, de }
export const namespaces = Object.keys(en) as (keyof typeof en)[]
export type Resources = typeof en
