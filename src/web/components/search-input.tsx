import { Search } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { SEARCH_DEBOUNCE_MS } from '../../domain/constants.ts'
import { cn } from '../lib/cn.ts'
import { Input } from './ui/input.tsx'

/**
 * A search box that reports the trimmed text once typing pauses for 300 ms, not at every key.
 * `value` is the search in effect (from the URL, say): when it changes from elsewhere — Clear
 * filters, the back button — the box shows it.
 */
export function SearchInput({
  value,
  onSearch,
  placeholder,
  label,
  maxLength,
  className,
}: {
  value: string
  onSearch: (search: string) => void
  placeholder: string
  label: string
  /** The server's limit for this search: longer input would be refused. */
  maxLength: number
  className?: string
}) {
  const [draft, setDraft] = useState(value)
  const reported = useRef(value)
  // The latest callback, so a caller's new function on each render does not restart the pause.
  const onSearchRef = useRef(onSearch)
  useEffect(() => {
    onSearchRef.current = onSearch
  })
  useEffect(() => {
    if (value !== reported.current) {
      reported.current = value
      setDraft(value)
    }
  }, [value])
  useEffect(() => {
    const search = draft.trim()
    if (search === reported.current) return
    const timer = setTimeout(() => {
      reported.current = search
      onSearchRef.current(search)
    }, SEARCH_DEBOUNCE_MS)
    return () => clearTimeout(timer)
  }, [draft])
  return (
    <div className={cn('relative', className)}>
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
      />
      <Input
        type="search"
        value={draft}
        onChange={(event) => setDraft(event.target.value)}
        placeholder={placeholder}
        aria-label={label}
        maxLength={maxLength}
        className="pl-9"
      />
    </div>
  )
}
