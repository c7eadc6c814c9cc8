import { MessageSquarePlus, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { PlaceholderValues } from '../../../domain/models.ts'
import { Button } from '../../components/ui/button.tsx'
import { Select, Textarea } from '../../components/ui/input.tsx'

const ROLES = ['user', 'assistant', 'system'] as const

/**
 * The messages each placeholder of a chat prompt stands for in a run: per placeholder, rows of
 * role and content, added and removed. None is what an unfilled placeholder stands for.
 */
export function PlaceholderFields({
  names,
  value,
  onChange,
}: {
  names: readonly string[]
  value: PlaceholderValues
  onChange: (next: PlaceholderValues) => void
}) {
  const { t } = useTranslation('models')
  return (
    <div className="space-y-3">
      {names.map((name) => {
        const messages = value[name] ?? []
        const set = (next: PlaceholderValues[string]) => onChange({ ...value, [name]: next })
        return (
          <fieldset key={name} className="space-y-2 rounded-lg border p-3">
            <legend className="px-1 text-sm font-medium">
              {t('playground.placeholder')} <code className="font-mono">{name}</code>
            </legend>
            {messages.length === 0 && (
              <p className="text-xs text-muted-foreground">{t('playground.placeholderEmpty')}</p>
            )}
            <ol className="space-y-2">
              {messages.map((message, index) => {
                const number = index + 1
                const replace = (next: Partial<typeof message>) =>
                  set(messages.map((current, at) => (at === index ? { ...current, ...next } : current)))
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
                  <li key={index} className="flex flex-wrap items-start gap-2 sm:flex-nowrap">
                    <Select
                      className="h-9 w-32 shrink-0"
                      value={message.role}
                      aria-label={t('playground.placeholderRole', { name, number })}
                      onChange={(event) => replace({ role: event.target.value })}
                    >
                      {[...new Set([...ROLES, message.role])].map((role) => (
                        <option key={role} value={role}>
                          {role}
                        </option>
                      ))}
                    </Select>
                    <Textarea
                      rows={2}
                      className="min-w-0 flex-1"
                      value={message.content}
                      aria-label={t('playground.placeholderContent', { name, number })}
                      onChange={(event) => replace({ content: event.target.value })}
                    />
                    <Button
                      variant="ghost"
                      size="icon-sm"
                      aria-label={t('playground.placeholderRemove', { name, number })}
                      onClick={() => set(messages.filter((_, at) => at !== index))}
                    >
                      <X aria-hidden />
                    </Button>
                  </li>
                )
              })}
            </ol>
            <Button
              variant="outline"
              size="sm"
              onClick={() =>
                set([
                  ...messages,
                  { role: messages.at(-1)?.role === 'user' ? 'assistant' : 'user', content: '' },
                ])
              }
            >
              <MessageSquarePlus aria-hidden />
              {t('playground.placeholderAdd', { name })}
            </Button>
          </fieldset>
        )
      })}
    </div>
  )
}
