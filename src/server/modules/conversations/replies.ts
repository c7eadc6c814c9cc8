import type { ModelMessage } from 'ai'
import { desc, eq, sql } from 'drizzle-orm'
import type { z } from 'zod'
import type { Actor } from '../../../domain/auth.ts'
import {
  type generateReplyInput,
  MESSAGE_TEXT_MAX,
  type Message,
  MODEL_NAME_MAX,
  REPLY_CONTEXT,
  TOKEN_COUNT_MAX,
} from '../../../domain/conversations.ts'
import { AppError } from '../../../domain/errors.ts'
import type { CompiledPromptAnswer } from '../../../domain/prompt-variables.ts'
import type { Db } from '../../db/client.ts'
import { conversationMessages, conversations } from '../../db/schema/index.ts'
import {
  callModel,
  enforceRunRates,
  loadUsableProvider,
  type ModelDeps,
  modelMessage,
  type RunHooks,
  runSettings,
} from '../models/index.ts'
import { compileAsContext } from '../prompts/index.ts'
import { attachmentsColumn } from './attachments.ts'
import { appendMessageIn } from './messages.ts'
import { loadConversation } from './policy.ts'

/** The newest messages that fit `REPLY_CONTEXT`, oldest first, as the model's messages. */
async function replyContext(db: Db, actor: Actor, conversationId: string): Promise<ModelMessage[]> {
  const newest = await db
    .select({
      id: conversationMessages.id,
      role: conversationMessages.role,
      text: sql<string>`${conversationMessages.content} ->> 'text'`,
      attachments: attachmentsColumn(actor.id, conversationMessages.id),
    })
    .from(conversationMessages)
    .where(eq(conversationMessages.conversationId, conversationId))
    .orderBy(desc(conversationMessages.createdAt), desc(conversationMessages.id))
    .limit(REPLY_CONTEXT.messages)
  const kept: ModelMessage[][] = []
  let characters = 0
  let compiles = 0
  for (const message of newest) {
    const attached: CompiledPromptAnswer['prompt'][] = []
    for (const attachment of message.attachments ?? []) {
      // A prompt the viewer may not (or no longer) see adds nothing; past the bound, nor do older ones.
      if (!attachment.promptId || compiles >= REPLY_CONTEXT.attachments) continue
      compiles += 1
      const compiled = await compileAsContext(db, actor, attachment.promptId, attachment.promptVersionId)
      if (compiled !== undefined) attached.push(compiled)
    }
    const messages = withAttachments(message.role, message.text, attached)
    characters += messages.reduce((sum, entry) => sum + String(entry.content).length, 0)
    // The newest message goes in whatever its size; older ones only while they fit.
    if (kept.length > 0 && characters > REPLY_CONTEXT.characters) break
    kept.push(messages)
  }
  return kept.reverse().flat()
}

/**
 * A message with the prompts attached to it: a text prompt goes before the message's text, in the
 * message's role (attached to a system message it is system context, to a user message user
 * context); a chat prompt's messages go before the message, in their own roles.
 */
export function withAttachments(
  role: string,
  text: string,
  attached: CompiledPromptAnswer['prompt'][],
): ModelMessage[] {
  const before: ModelMessage[] = []
  const texts: string[] = []
  for (const prompt of attached) {
    if (typeof prompt === 'string') texts.push(prompt)
    else for (const entry of prompt) if ('role' in entry) before.push(modelMessage(entry.role, entry.content))
  }
  return [...before, modelMessage(role, [...texts, text].join('\n\n'))]
}

/**
 * A model's answer as a message can hold it: at most MESSAGE_TEXT_MAX characters (a longer answer
 * keeps its beginning, not cut inside a character), without what PostgreSQL's JSON cannot store
 * (U+0000, unpaired surrogates), which requests are refused for but a model may send.
 */
export function storableText(answer: string): string {
  let text = answer.trim().slice(0, MESSAGE_TEXT_MAX)
  if (/[\uD800-\uDBFF]$/.test(text)) text = text.slice(0, -1)
  return text
    .replaceAll('\u0000', '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .trim()
}

/** The provider and model a reply uses: the ones asked for, else the conversation's last ones. */
function chosenModel(
  input: z.output<typeof generateReplyInput>,
  stored: { modelProviderId: string | null; model: string | null },
) {
  const providerId = input.providerId ?? stored.modelProviderId
  if (!providerId)
    throw new AppError('validation', 'models.providerRequired', {
      fields: { providerId: 'models.providerRequired' },
    })
  const model =
    input.model ?? (providerId === stored.modelProviderId ? (stored.model ?? undefined) : undefined)
  return { providerId, model }
}

/**
 * "Generate reply": the conversation's newest messages, with their attached prompts, go to a model
 * of a provider the actor may use (as a prompt run does: the same limits, record and audit); the
 * answer is appended as an assistant message carrying the model and its output tokens, and the
 * conversation remembers the provider and model for its next reply. A stopped reply stores nothing
 * (half an answer would read as the model's whole one), nor does an empty one.
 */
export async function generateReply(
  deps: ModelDeps,
  actor: Actor,
  conversationId: string,
  input: z.output<typeof generateReplyInput>,
  hooks: RunHooks,
): Promise<Message> {
  const { db } = deps
  await loadConversation(db, actor, conversationId)
  const [stored] = await db
    .select({ modelProviderId: conversations.modelProviderId, model: conversations.model })
    .from(conversations)
    .where(eq(conversations.id, conversationId))
  const chosen = chosenModel(input, stored ?? { modelProviderId: null, model: null })
  const provider = await loadUsableProvider(db, actor, chosen.providerId)
  const { model, parameters } = runSettings(
    provider,
    { model: chosen.model, parameters: input.parameters },
    {},
  )
  // The reply's message carries the model's name, which messages keep to MODEL_NAME_MAX.
  if (model.length > MODEL_NAME_MAX)
    throw new AppError('validation', 'conversations.modelTooLong', {
      fields: { model: 'conversations.modelTooLong' },
    })
  const messages = await replyContext(db, actor, conversationId)
  if (messages.length === 0) throw new AppError('conflict', 'conversations.replyNeedsMessages')
  await enforceRunRates(deps, actor, provider)
  const answer = await callModel(
    deps,
    actor,
    {
      provider,
      model,
      parameters,
      messages,
      kind: 'reply',
      conversationId,
      audit: {
        action: 'conversation.reply',
        objectType: 'conversation',
        objectId: conversationId,
        after: { messages: messages.length },
      },
    },
    hooks,
  )
  const text = storableText(answer.text)
  if (answer.finishReason === 'cancelled') throw new AppError('conflict', 'models.replyCancelled')
  if (!text) throw new AppError('upstream', 'models.upstreamEmpty', { reason: 'upstream_empty' })
  return db.transaction(async (tx) => {
    const reply = await appendMessageIn(tx, actor, conversationId, {
      role: 'assistant',
      content: { text },
      model,
      tokenCount: answer.outputTokens === null ? null : Math.min(answer.outputTokens, TOKEN_COUNT_MAX),
      attachments: [],
    })
    await tx
      .update(conversations)
      .set({ modelProviderId: provider.id, model })
      .where(eq(conversations.id, conversationId))
    return reply
  })
}
