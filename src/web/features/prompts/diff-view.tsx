import { type Change, diffLines, diffWordsWithSpace } from 'diff'
import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { cn } from '../../lib/cn.ts'

/**
 * A diff of two texts with jsdiff: by lines or words, inline or side by side. Additions and
 * removals are not told by colour alone: each line has a visible + or − marker, changed words are
 * underlined or struck through, and screen readers hear "Added:" or "Removed:" before each.
 * Default export: the screens load it lazily.
 */
type DiffLayout = 'inline' | 'split'
type DiffGranularity = 'lines' | 'words'

type Row = { kind: 'added' | 'removed' | 'same'; text: string }

function withNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`
}

function linesOf(value: string): string[] {
  const lines = value.split('\n')
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop()
  return lines
}

function rowsOf(changes: Change[]): Row[] {
  return changes.flatMap((change) =>
    linesOf(change.value).map((text) => ({
      kind: change.added ? ('added' as const) : change.removed ? ('removed' as const) : ('same' as const),
      text,
    })),
  )
}

/** Side by side: unchanged lines on both sides, a removed block paired with the added one after it. */
function splitRows(rows: Row[]): [Row | null, Row | null][] {
  const pairs: [Row | null, Row | null][] = []
  let index = 0
  while (index < rows.length) {
    const row = rows[index]!
    if (row.kind === 'same') {
      pairs.push([row, row])
      index++
      continue
    }
    const removed: Row[] = []
    const added: Row[] = []
    while (index < rows.length && rows[index]!.kind !== 'same') {
      const next = rows[index]!
      if (next.kind === 'removed') removed.push(next)
      else added.push(next)
      index++
    }
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      pairs.push([removed[i] ?? null, added[i] ?? null])
  }
  return pairs
}

const rowStyle = {
  added: 'bg-emerald-500/15 text-foreground',
  removed: 'bg-rose-500/15 text-foreground',
  same: 'text-muted-foreground',
} as const

function Marker({ kind }: { kind: Row['kind'] }) {
  const { t } = useTranslation('craft')
  return (
    <>
      <span aria-hidden className="inline-block w-5 shrink-0 select-none text-center font-semibold">
        {kind === 'added' ? '+' : kind === 'removed' ? '−' : ' '}
      </span>
      {kind !== 'same' && (
        <span className="sr-only">{kind === 'added' ? t('diff.added') : t('diff.removed')} </span>
      )}
    </>
  )
}

function LineRow({ row }: { row: Row | null }) {
  if (!row) return <div className="min-h-5 bg-muted/40" />
  return (
    <div className={cn('flex min-h-5 px-1', rowStyle[row.kind])} data-diff={row.kind}>
      <Marker kind={row.kind} />
      <span className="min-w-0 whitespace-pre-wrap break-words">{row.text}</span>
    </div>
  )
}

function WordPart({ change }: { change: Change }) {
  const { t } = useTranslation('craft')
  if (change.added) {
    return (
      <ins className="bg-emerald-500/20 underline decoration-2" data-diff="added">
        <span className="sr-only">[{t('diff.added')} </span>
        {change.value}
        <span className="sr-only">]</span>
      </ins>
    )
  }
  if (change.removed) {
    return (
      <del className="bg-rose-500/20 line-through decoration-2" data-diff="removed">
        <span className="sr-only">[{t('diff.removed')} </span>
        {change.value}
        <span className="sr-only">]</span>
      </del>
    )
  }
  return <span>{change.value}</span>
}

function ToggleGroup<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string
  value: T
  options: { value: T; label: string }[]
  onChange: (value: T) => void
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a labelled group of pressed-state buttons
    <div role="group" aria-label={label} className="inline-flex items-center gap-1 rounded-lg bg-muted p-1">
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={value === option.value}
          onClick={() => onChange(option.value)}
          className={cn(
            'cursor-pointer rounded-md px-3 py-1 text-sm font-medium text-muted-foreground',
            value === option.value && 'bg-card text-foreground shadow-xs',
          )}
        >
          {option.label}
        </button>
      ))}
    </div>
  )
}

export default function DiffView({
  oldText,
  newText,
  oldLabel,
  newLabel,
}: {
  oldText: string
  newText: string
  oldLabel: string
  newLabel: string
}) {
  const { t } = useTranslation('craft')
  const [layout, setLayout] = useState<DiffLayout>('inline')
  const [granularity, setGranularity] = useState<DiffGranularity>('lines')
  const captionId = useId()
  // A last line without its newline would differ from the same line followed by more lines.
  const lineChanges = useMemo(() => diffLines(withNewline(oldText), withNewline(newText)), [oldText, newText])
  const wordChanges = useMemo(
    () => (granularity === 'words' ? diffWordsWithSpace(oldText, newText) : []),
    [granularity, oldText, newText],
  )
  const rows = useMemo(() => rowsOf(lineChanges), [lineChanges])
  const added = rows.filter((row) => row.kind === 'added').length
  const removed = rows.filter((row) => row.kind === 'removed').length
  const same = added === 0 && removed === 0

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <ToggleGroup
          label={t('diff.layout')}
          value={layout}
          onChange={setLayout}
          options={[
            { value: 'inline', label: t('diff.inline') },
            { value: 'split', label: t('diff.sideBySide') },
          ]}
        />
        <ToggleGroup
          label={t('diff.granularity')}
          value={granularity}
          onChange={setGranularity}
          options={[
            { value: 'lines', label: t('diff.lines') },
            { value: 'words', label: t('diff.words') },
          ]}
        />
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {same ? t('diff.identical') : t('diff.summary', { added: `+${added}`, removed: `−${removed}` })}
        </p>
      </div>
      <section
        aria-labelledby={captionId}
        className="max-h-[60dvh] overflow-auto rounded-md border font-mono text-xs leading-5"
      >
        <h4 id={captionId} className="sr-only">
          {t('diff.diffLabel', { from: oldLabel, to: newLabel })}
        </h4>
        {layout === 'split' && (
          <div className="sticky top-0 grid grid-cols-2 border-b bg-card font-sans text-xs font-medium">
            <div className="px-2 py-1">− {oldLabel}</div>
            <div className="border-l px-2 py-1">+ {newLabel}</div>
          </div>
        )}
        {granularity === 'words' ? (
          layout === 'inline' ? (
            <p className="whitespace-pre-wrap break-words p-2">
              {wordChanges.map((change, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts have no identity but their order
                <WordPart key={index} change={change} />
              ))}
            </p>
          ) : (
            <div className="grid grid-cols-2">
              <p className="whitespace-pre-wrap break-words p-2">
                {wordChanges
                  .filter((change) => !change.added)
                  .map((change, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts have no identity but their order
                    <WordPart key={index} change={change} />
                  ))}
              </p>
              <p className="whitespace-pre-wrap break-words border-l p-2">
                {wordChanges
                  .filter((change) => !change.removed)
                  .map((change, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts have no identity but their order
                    <WordPart key={index} change={change} />
                  ))}
              </p>
            </div>
          )
        ) : layout === 'inline' ? (
          <div className="py-1">
            {rows.map((row, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity but their order
              <LineRow key={index} row={row} />
            ))}
          </div>
        ) : (
          <div className="py-1">
            {splitRows(rows).map(([left, right], index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines have no identity but their order
              <div key={index} className="grid grid-cols-2">
                <LineRow row={left} />
                <div className="border-l">
                  <LineRow row={right} />
                </div>
              </div>
            ))}
          </div>
        )}
      </section>
    </div>
  )
}
