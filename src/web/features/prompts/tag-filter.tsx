import { ChevronDown, Tag } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { PromptScope } from '../../../domain/prompts.ts'
import { Button } from '../../components/ui/button.tsx'
import {
  DropdownMenu,
  DropdownMenuCheckboxItem,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { usePromptTags } from './queries.ts'

interface TagFilterProps {
  scope: PromptScope
  teamId?: string
  selected: string[]
  onChange: (tags: string[]) => void
}

/** The tag filter dropdown: a checkbox per tag of the scope, and 'Clear all'. */
export function TagFilter({ scope, teamId, selected, onChange }: TagFilterProps) {
  const { t } = useTranslation('prompts')
  const tags = usePromptTags(scope, teamId)
  // A tag chosen in the URL stays choosable even when no prompt of this scope carries it any more.
  const available = [...new Set([...(tags.data ?? []), ...selected])].sort((a, b) => a.localeCompare(b))
  const toggle = (tag: string, checked: boolean) =>
    onChange(checked ? [...selected, tag] : selected.filter((other) => other !== tag))
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline">
          <Tag aria-hidden />
          {selected.length > 0
            ? t('tagFilter.buttonCount', { count: selected.length })
            : t('tagFilter.button')}
          <ChevronDown aria-hidden className="text-muted-foreground" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-h-80 w-60 overflow-y-auto">
        <DropdownMenuLabel>{t('tagFilter.label')}</DropdownMenuLabel>
        {tags.isPending && (
          <div className="px-2 py-1.5">
            <Spinner label={t('tagFilter.loading')} />
          </div>
        )}
        {tags.isError && <p className="px-2 py-1.5 text-sm text-destructive">{t('tagFilter.failed')}</p>}
        {tags.isSuccess && available.length === 0 && (
          <p className="px-2 py-1.5 text-sm text-muted-foreground">{t('tagFilter.empty')}</p>
        )}
        {available.map((tag) => (
          <DropdownMenuCheckboxItem
            key={tag}
            checked={selected.includes(tag)}
            // Keep the menu open so several tags can be ticked in a row.
            onSelect={(event) => event.preventDefault()}
            onCheckedChange={(checked) => toggle(tag, checked === true)}
          >
            <span className="truncate">{tag}</span>
          </DropdownMenuCheckboxItem>
        ))}
        {available.length > 0 && (
          <>
            <DropdownMenuSeparator />
            <DropdownMenuItem disabled={selected.length === 0} onSelect={() => onChange([])}>
              {t('tagFilter.clear')}
            </DropdownMenuItem>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  )
}
