import { adminEn } from './en/admin.ts'
import { auditEn } from './en/audit.ts'
import { authEn } from './en/auth.ts'
import { commonEn } from './en/common.ts'
import { conversationsEn } from './en/conversations.ts'
import { dataRightsEn } from './en/data-rights.ts'
import { mailEn } from './en/mail.ts'
import { mcpEn } from './en/mcp.ts'
import { modelsEn } from './en/models.ts'
import { plansEn } from './en/plans.ts'
import { profileEn } from './en/profile.ts'
import { promptVariablesEn } from './en/prompt-variables.ts'
import { promptsEn } from './en/prompts.ts'
import { publicApiEn } from './en/public-api.ts'
import { teamsEn } from './en/teams.ts'
import { webhooksEn } from './en/webhooks.ts'

/**
 * English texts shared by server and web, one file per domain under ./en (keys prefixed by domain).
 * The web's own UI texts live in src/web/i18n. Every key must exist in German too (a unit test
 * checks it).
 */
export const en = {
  ...commonEn,
  ...authEn,
  ...profileEn,
  ...mailEn,
  ...conversationsEn,
  ...teamsEn,
  ...promptsEn,
  ...plansEn,
  ...publicApiEn,
  ...mcpEn,
  ...promptVariablesEn,
  ...adminEn,
  ...dataRightsEn,
  ...auditEn,
  ...webhooksEn,
  ...modelsEn,
}
