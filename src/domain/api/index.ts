import { accountOperations } from './account.ts'
import { adminOperations } from './admin.ts'
import { apiKeyOperations } from './api-keys.ts'
import { auditOperations } from './audit.ts'
import { authOperations } from './auth.ts'
import { conversationOperations } from './conversations.ts'
import { dashboardOperations } from './dashboard.ts'
import { dataRightsOperations } from './data-rights.ts'
import { langfuseOperations } from './langfuse.ts'
import { mailOperations } from './mail.ts'
import { modelOperations } from './models.ts'
import { planOperations } from './plans.ts'
import { promptLabelOperations } from './prompt-labels.ts'
import { promptOperations } from './prompts.ts'
import { systemOperations } from './system.ts'
import { teamOperations } from './teams.ts'
import { webhookOperations } from './webhooks.ts'

/** Every operation group of the JSON API, in the order the API documents list them. */
export const operationGroups = [
  authOperations,
  accountOperations,
  promptOperations,
  promptLabelOperations,
  conversationOperations,
  teamOperations,
  planOperations,
  dashboardOperations,
  mailOperations,
  apiKeyOperations,
  adminOperations,
  dataRightsOperations,
  auditOperations,
  webhookOperations,
  modelOperations,
  systemOperations,
  langfuseOperations,
] as const
