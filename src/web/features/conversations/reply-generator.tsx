import { useQueryClient } from '@tanstack/react-query'
import { Bot, Sparkles, Square } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { conversationOperations } from '../../../domain/api/conversations.ts'
import type { Conversation, GenerateReplyInput } from '../../../domain/conversations.ts'
import type { ModelProvider } from '../../../domain/models.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { type ApiError, errorText } from '../../lib/api.ts'
import { callOperationStreamingText } from '../../lib/api-streams.ts'
import { useUsableProviders } from '../models/index.ts'
import { messageAdded } from './message-queries.ts'

/** A reply as the conversation shows it: the text streaming in, or why it did not come. */
export type ReplyState =
  | { status: 'idle' }
  | { status: 'running'; text: string; model: string }
  | { status: 'stopped' }
  | { status: 'failed'; error: ApiError | Error }

/**
 * Generates the conversation's next reply and streams it in; once the server has stored it, the
 * message joins the list. `stop` aborts the request (the server cancels the model's and stores
 * nothing). Leaving the page stops it too.
 */
export function useGenerateReply(conversationId: string) {
  const queryClient = useQueryClient()
  const [state, setState] = useState<ReplyState>({ status: 'idle' })
  const controller = useRef<AbortController | null>(null)
  useEffect(() => () => controller.current?.abort(), [])

  const start = async (body: GenerateReplyInput & { model: string }) => {
    controller.current?.abort()
    const own = new AbortController()
    controller.current = own
    let text = ''
    setState({ status: 'running', text, model: body.model })
    try {
      const message = await callOperationStreamingText(
        conversationOperations.generateReply,
        { params: { id: conversationId }, body },
        (piece) => {
          text += piece
          if (!own.signal.aborted) setState({ status: 'running', text, model: body.model })
        },
        { signal: own.signal },
      )
      if (own.signal.aborted) return
      messageAdded(queryClient, message)
      setState({ status: 'idle' })
    } catch (error) {
      if (!own.signal.aborted) setState({ status: 'failed', error: error as Error })
    } finally {
      if (controller.current === own) controller.current = null
    }
  }

  const stop = () => {
    controller.current?.abort()
    controller.current = null
    setState({ status: 'stopped' })
  }

  return { state, start, stop }
}

/** The provider and model to start with: the conversation's last ones, else the first provider's default. */
function initialChoice(providers: ModelProvider[], conversation: Conversation) {
  const last = conversation.replyModel
  const provider = providers.find((candidate) => candidate.id === last?.providerId) ?? providers[0]!
  return {
    providerId: provider.id,
    model: last && last.providerId === provider.id ? last.model : provider.defaultModel,
  }
}

/**
 * "Generate reply": a provider and model (remembered by the conversation) and the button that turns
 * into Stop while the reply streams in. Without a provider, a way to Settings → Models; the
 * conversation stays a log that can be written by hand.
 */
export function ReplyGenerator({
  conversation,
  hasMessages,
  reply,
}: {
  conversation: Conversation
  hasMessages: boolean
  reply: ReturnType<typeof useGenerateReply>
}) {
  const { t } = useTranslation('conversations')
  const providers = useUsableProviders()
  if (providers.isPending || providers.isError) return null
  if (providers.data.length === 0)
    return (
      <p className="flex items-center gap-1.5 px-1 text-xs text-muted-foreground">
        <Sparkles aria-hidden className="size-3.5" />
        {t('reply.noProviders')}{' '}
        <Link to="/settings/models" className="font-medium text-primary hover:underline">
          {t('reply.addProvider')}
        </Link>
      </p>
    )
  return (
    <ReplyControls
      key={conversation.id}
      conversation={conversation}
      providers={providers.data}
      hasMessages={hasMessages}
      reply={reply}
    />
  )
}

function ReplyControls({
  conversation,
  providers,
  hasMessages,
  reply,
}: {
  conversation: Conversation
  providers: ModelProvider[]
  hasMessages: boolean
  reply: ReturnType<typeof useGenerateReply>
}) {
  const { t } = useTranslation('conversations')
  const id = useId()
  const [choice, setChoice] = useState(() => initialChoice(providers, conversation))
  const provider = providers.find((candidate) => candidate.id === choice.providerId) ?? providers[0]!
  const running = reply.state.status === 'running'
  const model = choice.model.trim()
  const generate = () => {
    if (!model) return
    void reply.start({ providerId: provider.id, model })
  }
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={`${id}-provider`} className="sr-only">
          {t('reply.provider')}
        </label>
        <Select
          id={`${id}-provider`}
          value={provider.id}
          disabled={running}
          className="h-8 w-auto max-w-[12rem] text-xs"
          onChange={(event) => {
            const next = providers.find((candidate) => candidate.id === event.target.value)
            if (next) setChoice({ providerId: next.id, model: next.defaultModel })
          }}
        >
          {providers.map((option) => (
            <option key={option.id} value={option.id}>
              {option.name}
            </option>
          ))}
        </Select>
        <label htmlFor={`${id}-model`} className="sr-only">
          {t('reply.model')}
        </label>
        <Input
          id={`${id}-model`}
          list={`${id}-models`}
          value={choice.model}
          disabled={running}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('reply.model')}
          className="h-8 w-44 text-xs"
          onChange={(event) => setChoice({ ...choice, model: event.target.value })}
        />
        <datalist id={`${id}-models`}>
          {provider.models.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        {/* One button that turns into Stop, so the focus stays on it while the reply streams. */}
        <Button
          size="sm"
          variant={running ? 'outline' : 'secondary'}
          disabled={!running && (!hasMessages || !model)}
          onClick={running ? reply.stop : generate}
        >
          {running ? <Square aria-hidden /> : <Bot aria-hidden />}
          {running ? t('reply.stop') : t('reply.generate')}
        </Button>
        {!hasMessages && <span className="text-xs text-muted-foreground">{t('reply.needsMessages')}</span>}
      </div>
      {reply.state.status === 'failed' && (
        <Alert tone="error" title={errorText(reply.state.error, t('reply.failed'))} />
      )}
      {reply.state.status === 'stopped' && (
        <p role="status" className="text-xs text-muted-foreground">
          {t('reply.stopped')}
        </p>
      )}
    </div>
  )
}

/** The reply while it streams in, shaped like the assistant message it becomes. */
export function StreamingReply({ text, model }: { text: string; model: string }) {
  const { t } = useTranslation('conversations')
  return (
    <article
      aria-label={t('reply.streaming')}
      aria-busy
      className="rounded-xl border border-dashed bg-muted/60 p-3 sm:p-4"
    >
      <header className="mb-1.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1.5 text-sm font-semibold text-foreground">
          <Bot aria-hidden className="size-4 text-primary" />
          {t('messages.assistant')}
        </span>
        <Badge variant="outline">{model}</Badge>
        <span role="status">{t('reply.generating')}</span>
      </header>
      <p className="text-sm leading-relaxed break-words whitespace-pre-wrap">
        {text}
        <span
          aria-hidden
          className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-foreground/60 align-middle"
        />
      </p>
    </article>
  )
}
