import { adminDe } from './de/admin.ts'
import { auditDe } from './de/audit.ts'
import { authDe } from './de/auth.ts'
import { commonDe } from './de/common.ts'
import { conversationsDe } from './de/conversations.ts'
import { dataRightsDe } from './de/data-rights.ts'
import { mailDe } from './de/mail.ts'
import { mcpDe } from './de/mcp.ts'
import { modelsDe } from './de/models.ts'
import { plansDe } from './de/plans.ts'
import { profileDe } from './de/profile.ts'
import { promptVariablesDe } from './de/prompt-variables.ts'
import { promptsDe } from './de/prompts.ts'
import { publicApiDe } from './de/public-api.ts'
import { teamsDe } from './de/teams.ts'
import { webhooksDe } from './de/webhooks.ts'
import type { en } from './en.ts'

/** German texts, one file per domain under ./de; the spec's German sign-in messages word for word. */
export const de: Record<keyof typeof en, string> = {
  ...commonDe,
  ...authDe,
  ...profileDe,
  ...mailDe,
  ...conversationsDe,
  ...teamsDe,
  ...promptsDe,
  ...plansDe,
  ...publicApiDe,
  ...mcpDe,
  ...promptVariablesDe,
  ...adminDe,
  ...dataRightsDe,
  ...auditDe,
  ...webhooksDe,
  ...modelsDe,
}
