import { ArrowDown, ArrowUp, Braces, MessageSquarePlus, X } from 'lucide-react'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import type { ChatEntry } from '../../../domain/prompt-names.ts'
import { Button } from '../../components/ui/button.tsx'
import { Input, Select, Textarea } from '../../components/ui/input.tsx'

/** The roles offered; a role the API stored (any string) is kept and offered too. */
const ROLES = ['system', 'user', 'assistant'] as const

/** An entry while it is being edited: a message, or a placeholder (its name may still be blank). */
type DraftEntry = { role: string; content: string } | { type: 'placeholder'; name: string }

const isPlaceholder = (entry: DraftEntry): entry is { type: 'placeholder'; name: string } =>
  'type' in entry && entry.type === 'placeholder'

/**
 * The form keeps a chat prompt's body as its entries in JSON (what the server stores); the editor
 * reads rows from it and writes every change back. A body that is not such a list (a text prompt
 * being switched to chat) becomes one message.
 */
function chatEntriesOf(body: string): DraftEntry[] {
  if (body.trim() === '') return [{ role: 'system', content: '' }]
  try {
    const value: unknown = JSON.parse(body)
    if (Array.isArray(value)) {
      return value.map((item): DraftEntry => {
        const entry = (item ?? {}) as Record<string, unknown>
        if (entry.type === 'placeholder') return { type: 'placeholder', name: String(entry.name ?? '') }
        return { role: String(entry.role ?? 'user'), content: String(entry.content ?? '') }
      })
    }
  } catch {
    // Not JSON: the text itself, below.
  }
  return [{ role: 'system', content: body }]
}

export function chatBodyOf(entries: readonly DraftEntry[]): string {
  return JSON.stringify(entries)
}

/** A chat prompt's messages joined as text (switching a new prompt from chat back to text). */
export function chatText(body: string): string {
  return chatEntriesOf(body)
    .flatMap((entry) => (isPlaceholder(entry) ? [] : [entry.content]))
    .filter((content) => content.trim() !== '')
    .join('\n\n')
}

/** A chat prompt's body edited as rows: role and content per message, name per placeholder. */
export function ChatMessagesEditor({
  value,
  onChange,
  error,
}: {
  value: string
  onChange: (body: string) => void
  error?: string
}) {
  const { t } = useTranslation('prompts')
  const id = useId()
  const entries = chatEntriesOf(value)
  const update = (next: DraftEntry[]) => onChange(chatBodyOf(next))
  const replace = (index: number, entry: DraftEntry) =>
    update(entries.map((current, at) => (at === index ? entry : current)))
  const move = (index: number, by: -1 | 1) => {
    const next = [...entries]
    const [entry] = next.splice(index, 1)
    next.splice(index + by, 0, entry!)
    update(next)
  }
  const lastRole = [...entries].reverse().find((entry) => !isPlaceholder(entry)) as
    | { role: string }
    | undefined

  return (
    <fieldset className="space-y-2" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend className="mb-1.5 text-sm font-medium">{t('chat.messages')}</legend>
      <ol className="space-y-2">
        {entries.map((entry, index) => {
          const number = index + 1
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
            <li key={index} className="space-y-2 rounded-lg border bg-card p-3">
              <div className="flex flex-wrap items-center gap-2">
                {isPlaceholder(entry) ? (
                  <>
                    <span className="inline-flex items-center gap-1 text-xs font-medium text-muted-foreground">
                      <Braces aria-hidden className="size-3.5" />
                      {t('chat.placeholder')}
                    </span>
                    <Input
                      className="h-8 w-56 font-mono text-[13px]"
                      value={entry.name}
                      aria-label={t('chat.placeholderName', { number })}
                      placeholder={t('chat.placeholderNameHint')}
                      onChange={(event) => replace(index, { type: 'placeholder', name: event.target.value })}
                    />
                  </>
                ) : (
                  <Select
                    className="h-8 w-40"
                    value={entry.role}
                    aria-label={t('chat.role', { number })}
                    onChange={(event) => replace(index, { ...entry, role: event.target.value })}
                  >
                    {[...new Set([...ROLES, entry.role])].map((role) => (
                      <option key={role} value={role}>
                        {role}
                      </option>
                    ))}
                  </Select>
                )}
                <div className="ml-auto flex gap-1">
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    disabled={index === 0}
                    aria-label={t('chat.moveUp', { number })}
                    onClick={() => move(index, -1)}
                  >
                    <ArrowUp aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    disabled={index === entries.length - 1}
                    aria-label={t('chat.moveDown', { number })}
                    onClick={() => move(index, 1)}
                  >
                    <ArrowDown aria-hidden />
                  </Button>
                  <Button
                    variant="ghost"
                    size="icon-sm"
                    disabled={entries.length === 1}
                    aria-label={t('chat.remove', { number })}
                    onClick={() => update(entries.filter((_, at) => at !== index))}
                  >
                    <X aria-hidden />
                  </Button>
                </div>
              </div>
              {!isPlaceholder(entry) && (
                <Textarea
                  rows={3}
                  className="min-h-20 font-mono text-[13px]"
                  value={entry.content}
                  spellCheck={false}
                  aria-label={t('chat.content', { number })}
                  placeholder={t('chat.contentPlaceholder')}
                  onChange={(event) => replace(index, { ...entry, content: event.target.value })}
                />
              )}
            </li>
          )
        })}
      </ol>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="outline"
          size="sm"
          onClick={() =>
            update([...entries, { role: lastRole?.role === 'user' ? 'assistant' : 'user', content: '' }])
          }
        >
          <MessageSquarePlus aria-hidden />
          {t('chat.addMessage')}
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={() => update([...entries, { type: 'placeholder', name: '' }])}
        >
          <Braces aria-hidden />
          {t('chat.addPlaceholder')}
        </Button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {t('chat.hint', { example: `{{${t('chat.hintExampleName')}}}` })}
        </p>
      )}
    </fieldset>
  )
}

/** A version's body as the detail page and the version dialog show it. */
export function PromptBodyView({ type, body }: { type: 'text' | 'chat'; body: string }) {
  const { t } = useTranslation('prompts')
  if (type === 'text') {
    return (
      <pre className="overflow-x-auto rounded-lg bg-muted p-4 font-mono text-[13px] leading-relaxed break-words whitespace-pre-wrap">
        {body}
      </pre>
    )
  }
  const entries = chatEntriesOf(body) as ChatEntry[]
  return (
    <ol className="space-y-2" aria-label={t('chat.messages')}>
      {entries.map((entry, index) =>
        'type' in entry ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a version's entries never change
          <li key={index} className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
            <Braces aria-hidden className="mr-1.5 inline size-4 align-text-bottom" />
            {t('chat.placeholderView')} <code className="font-mono text-foreground">{entry.name}</code>
          </li>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a version's entries never change
          <li key={index} className="rounded-lg bg-muted p-3">
            <p className="mb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
              {entry.role}
            </p>
            <p className="font-mono text-[13px] leading-relaxed break-words whitespace-pre-wrap">
              {entry.content}
            </p>
          </li>
        ),
      )}
    </ol>
  )
}
