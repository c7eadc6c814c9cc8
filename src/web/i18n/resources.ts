import type { Locale } from '../../domain/messages/index.ts'
import deAuth from './locales/de/auth.json'
import deCommon from './locales/de/common.json'
import deConversations from './locales/de/conversations.json'
import dePages from './locales/de/pages.json'
import dePrompts from './locales/de/prompts.json'
import deShell from './locales/de/shell.json'
import enAuth from './locales/en/auth.json'
import enCommon from './locales/en/common.json'
import enConversations from './locales/en/conversations.json'
import enPages from './locales/en/pages.json'
import enPrompts from './locales/en/prompts.json'
import enShell from './locales/en/shell.json'

/** UI texts per namespace. Messages shared with the server live in src/domain/messages. */
const en = {
  common: enCommon,
  auth: enAuth,
  shell: enShell,
  pages: enPages,
  prompts: enPrompts,
  conversations: enConversations,
}
const de: typeof en = {
  common: deCommon,
  auth: deAuth,
  shell: deShell,
  pages: dePages,
  prompts: dePrompts,
  conversations: deConversations,
}

export const resources: Record<Locale, typeof en> = { en, de }
export const namespaces = Object.keys(en) as (keyof typeof en)[]
export type Resources = typeof en
