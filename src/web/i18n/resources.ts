import type { Locale } from '../../domain/messages/index.ts'
import deAuth from './locales/de/auth.json'
import deCommon from './locales/de/common.json'
import dePages from './locales/de/pages.json'
import dePrompts from './locales/de/prompts.json'
import deShell from './locales/de/shell.json'
import deTeams from './locales/de/teams.json'
import enAuth from './locales/en/auth.json'
import enCommon from './locales/en/common.json'
import enPages from './locales/en/pages.json'
import enPrompts from './locales/en/prompts.json'
import enShell from './locales/en/shell.json'
import enTeams from './locales/en/teams.json'

/** UI texts per namespace. Messages shared with the server live in src/domain/messages. */
const en = {
  common: enCommon,
  auth: enAuth,
  shell: enShell,
  pages: enPages,
  prompts: enPrompts,
  teams: enTeams,
}
const de: typeof en = {
  common: deCommon,
  auth: deAuth,
  shell: deShell,
  pages: dePages,
  prompts: dePrompts,
  teams: deTeams,
}

export const resources: Record<Locale, typeof en> = { en, de }
export const namespaces = Object.keys(en) as (keyof typeof en)[]
export type Resources = typeof en
