import { Bot, Paperclip, SendHorizontal, UserRound } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  ATTACHMENTS_PER_MESSAGE_MAX,
  MESSAGE_TEXT_MAX,
  type MessageRole,
  MODEL_NAME_MAX,
  TOKEN_COUNT_MAX,
} from '../../../domain/conversations.ts'
import { Button } from '../../components/ui/button.tsx'
import { Input, Textarea } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { message as sharedMessage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { cn } from '../../lib/cn.ts'
import { AttachmentChip } from './attachment-chip.tsx'
import { useAppendMessage } from './message-queries.ts'
import type { PickedPrompt } from './prompt-picker-dialog.tsx'

/**
 * Composer: pending prompt chips, a textarea where Enter sends and Shift+Enter adds a line, and a
 * role switch so the user can also log the assistant's reply with its model and token count.
 */
export function MessageComposer({
  conversationId,
  pending,
  onPendingChange,
  onAttachClick,
}: {
  conversationId: string
  pending: PickedPrompt[]
  onPendingChange: (pending: PickedPrompt[]) => void
  onAttachClick: () => void
}) {
  const { t } = useTranslation('conversations')
  const id = useId()
  const [text, setText] = useState('')
  const [role, setRole] = useState<Extract<MessageRole, 'user' | 'assistant'>>('user')
  const [model, setModel] = useState('')
  const [tokens, setTokens] = useState('')
  const append = useAppendMessage(conversationId)
  const tokenCount = tokens.trim() === '' ? null : Number(tokens)
  const tokensInvalid =
    tokenCount !== null && (!Number.isInteger(tokenCount) || tokenCount < 0 || tokenCount > TOKEN_COUNT_MAX)
  const canSend = text.trim() !== '' && !append.isPending && !(role === 'assistant' && tokensInvalid)

  const send = () => {
    if (!canSend) return
    append.mutate(
      {
        role,
        content: { text: text.trim() },
        ...(role === 'assistant' && { model: model.trim() || null, tokenCount }),
        attachments: pending.map((p) => ({ promptId: p.promptId, promptVersionId: p.promptVersionId })),
      },
      {
        onSuccess: () => {
          setText('')
          setTokens('')
          onPendingChange([])
        },
        onError: (error) =>
          toast({
            title: t('messages.sendFailed'),
            description: errorText(error, t('messages.sendFailed')),
            tone: 'error',
          }),
      },
    )
  }

  const roles = [
    { value: 'user', label: t('composer.roleUser'), icon: UserRound },
    { value: 'assistant', label: t('composer.roleAssistant'), icon: Bot },
  ] as const

  return (
    // The borderless message box shows its focus as the app's focus outline around the whole composer.
    <form
      className="space-y-2 rounded-xl border bg-card p-2 shadow-xs focus-within:border-ring has-[textarea:focus-visible]:outline-2 has-[textarea:focus-visible]:outline-offset-2 has-[textarea:focus-visible]:outline-ring sm:p-3"
      onSubmit={(event) => {
        event.preventDefault()
        send()
      }}
    >
      <div className="flex flex-wrap items-end gap-2">
        <fieldset className="inline-flex rounded-lg bg-muted p-0.5">
          <legend className="sr-only">{t('composer.role')}</legend>
          {roles.map((option) => (
            <label
              key={option.value}
              className={cn(
                'inline-flex cursor-pointer items-center gap-1.5 rounded-md px-2.5 py-1 text-xs font-medium text-muted-foreground transition-colors has-focus-visible:ring-2 has-focus-visible:ring-ring',
                role === option.value && 'bg-card text-foreground shadow-xs',
              )}
            >
              <input
                type="radio"
                name={`${id}-role`}
                value={option.value}
                checked={role === option.value}
                onChange={() => setRole(option.value)}
                className="sr-only"
              />
              <option.icon aria-hidden className="size-3.5" />
              {option.label}
            </label>
          ))}
        </fieldset>
        {role === 'assistant' && (
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <label
              htmlFor={`${id}-model`}
              className="flex items-center gap-1.5 text-xs text-muted-foreground"
            >
              {t('composer.model')}
              <Input
                id={`${id}-model`}
                value={model}
                maxLength={MODEL_NAME_MAX}
                onChange={(event) => setModel(event.target.value)}
                placeholder={t('composer.modelPlaceholder')}
                className="h-8 w-32"
              />
            </label>
            <label
              htmlFor={`${id}-token-count`}
              className="flex items-center gap-1.5 text-xs text-muted-foreground"
            >
              {t('composer.tokens')}
              <Input
                id={`${id}-token-count`}
                value={tokens}
                inputMode="numeric"
                type="number"
                min={0}
                step={1}
                onChange={(event) => setTokens(event.target.value)}
                aria-invalid={tokensInvalid ? true : undefined}
                aria-describedby={tokensInvalid ? `${id}-tokens` : undefined}
                className="h-8 w-20"
              />
            </label>
            {tokensInvalid && (
              <p id={`${id}-tokens`} role="alert" className="w-full text-xs font-medium text-destructive">
                {sharedMessage('conversations.invalidTokenCount')}
              </p>
            )}
          </div>
        )}
      </div>

      {pending.length > 0 && (
        <ul className="flex flex-wrap gap-1.5" aria-label={t('composer.pending')}>
          {pending.map((p) => (
            <li key={`${p.promptId}|${p.promptVersionId}`} className="max-w-full">
              <AttachmentChip
                promptId={p.promptId}
                title={p.title}
                versionNumber={p.versionNumber}
                onRemove={() => onPendingChange(pending.filter((other) => other !== p))}
              />
            </li>
          ))}
        </ul>
      )}

      <Textarea
        value={text}
        maxLength={MESSAGE_TEXT_MAX}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault()
            send()
          }
        }}
        rows={Math.min(8, Math.max(2, text.split('\n').length))}
        placeholder={role === 'assistant' ? t('composer.placeholderAssistant') : t('composer.placeholder')}
        aria-label={t('composer.label')}
        aria-describedby={`${id}-hint`}
        className="min-h-0 resize-none border-0 shadow-none focus-visible:outline-none"
      />
      <div className="flex items-center gap-2">
        <Button
          variant="ghost"
          size="sm"
          onClick={onAttachClick}
          disabled={pending.length >= ATTACHMENTS_PER_MESSAGE_MAX}
        >
          <Paperclip aria-hidden />
          {t('composer.attach')}
        </Button>
        <p id={`${id}-hint`} className="hidden flex-1 text-xs text-muted-foreground sm:block">
          {t('composer.hint')}
        </p>
        <Button type="submit" size="sm" className="ml-auto" disabled={!canSend}>
          <SendHorizontal aria-hidden />
          {append.isPending ? t('composer.sending') : t('composer.send')}
        </Button>
      </div>
    </form>
  )
}
