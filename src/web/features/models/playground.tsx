import { Columns2, Play, Sparkles, Square } from 'lucide-react'
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { placeholderNamesOf } from '../../../domain/mcp.ts'
import type { ModelProvider, PlaceholderValues } from '../../../domain/models.ts'
import { type PromptType, parsePromptBody } from '../../../domain/prompt-names.ts'
import { parseReferences } from '../../../domain/prompt-references.ts'
import { compilePrompt, type VariableDeclaration } from '../../../domain/prompt-variables.ts'
import type { PromptVersion } from '../../../domain/prompts.ts'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { errorText } from '../../lib/api.ts'
import {
  compileValuesOf,
  useProblemText,
  usePromptVersions,
  VariableFields,
  variableFieldsOf,
} from '../prompts/index.ts'
import { PlaceholderFields } from './placeholder-fields.tsx'
import { PlaygroundColumn } from './playground-column.tsx'
import { selectorOf } from './playground-settings.ts'
import { useExpandedVariables, useUsableProviders } from './queries.ts'
import { type Column, useColumn } from './use-column.ts'

/** `value`, once it has stayed the same for `ms` (typing in a draft asks the server once). */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return settled
}

/**
 * The variables and placeholders of a column's text with the prompts it includes expanded, which
 * only the server can say (the included prompts may be ones the page never loaded). Asked only when
 * the text includes another prompt.
 */
function useExpanded(promptId: string, column: Column, active: boolean) {
  const body = useDebounced(column.body, 400)
  const selector = column.version ? selectorOf(column.choice, column.version) : {}
  const includes = active && Boolean(column.version) && parseReferences(body).length > 0
  const query = useExpandedVariables(promptId, { ...selector, ...(column.draft && { body }) }, includes)
  return includes ? query.data : undefined
}

const plainField = (name: string): VariableDeclaration => ({
  name,
  type: 'string',
  required: false,
  default: null,
  description: null,
  values: [],
})

/**
 * The fields of the shared form: each column's declared and used variables, then those only its
 * included prompts use; the placeholders of its messages. A draft being typed may not parse yet
 * (a chat body's JSON): then its declarations only.
 */
function sharedFields(
  type: PromptType,
  columns: readonly { column: Column; expanded?: { variables: string[]; placeholders: string[] } }[],
) {
  const fields = new Map<string, VariableDeclaration>()
  const placeholders = new Set<string>()
  for (const { column, expanded } of columns) {
    if (!column.version) continue
    let own: VariableDeclaration[] = column.version.variables
    try {
      own = variableFieldsOf(type, column.body, column.version.variables)
      for (const name of placeholderNamesOf(type, parsePromptBody(type, column.body))) placeholders.add(name)
    } catch {
      // Not parseable yet: the run says why.
    }
    for (const field of own) if (!fields.has(field.name)) fields.set(field.name, field)
    for (const name of expanded?.variables ?? []) if (!fields.has(name)) fields.set(name, plainField(name))
    for (const name of expanded?.placeholders ?? []) placeholders.add(name)
  }
  return { fields: [...fields.values()], placeholders: [...placeholders] }
}

/**
 * The playground once the providers are known: one column, or two side by side ("Compare"), each
 * with its own version, provider, model, parameters and draft; the variables and placeholders are
 * shared. "Run both" starts both streams at once; Stop ends each, "Stop both" both.
 */
function Playground({
  promptId,
  type,
  current,
  providers,
  canEdit,
}: {
  promptId: string
  type: PromptType
  current: PromptVersion
  providers: ModelProvider[]
  canEdit: boolean
}) {
  const { t } = useTranslation('models')
  const a = useColumn(promptId, providers, current)
  const b = useColumn(promptId, providers, current)
  const [compare, setCompare] = useState(false)
  const expandedA = useExpanded(promptId, a, true)
  const expandedB = useExpanded(promptId, b, compare)
  const versions = usePromptVersions(promptId)
  const summaries = versions.data?.pages.flatMap((page) => page.items) ?? []
  const choices = summaries.some((summary) => summary.id === current.id) ? summaries : [current, ...summaries]
  const [values, setValues] = useState<Record<string, string>>({})
  const [filled, setFilled] = useState<PlaceholderValues>({})
  const active = compare
    ? [
        { column: a, expanded: expandedA },
        { column: b, expanded: expandedB },
      ]
    : [{ column: a, expanded: expandedA }]
  const { fields, placeholders } = sharedFields(type, active)
  const problemText = useProblemText(fields)
  const compileValues = useMemo(() => compileValuesOf(fields, values), [fields, values])
  const compiled = active.map(({ column }) =>
    column.version ? compilePrompt(type, column.body, column.version.variables, compileValues) : null,
  )
  const problems = compiled.flatMap((result) => (result && !result.ok ? result.problems : []))
  const placeholderValues = Object.fromEntries(
    placeholders.flatMap((name) => (filled[name]?.length ? [[name, filled[name]]] : [])),
  )
  const start = (column: Column) => column.start(compileValues, placeholderValues)
  const anyRunning = active.some(({ column }) => column.run.state.status === 'running')
  const allRunnable = compiled.every((result) => result?.ok)

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-2">
        <Button
          variant={compare ? 'secondary' : 'outline'}
          size="sm"
          aria-pressed={compare}
          onClick={() => {
            // Column B hides when comparing ends: its answer should not go on streaming unseen.
            if (compare) b.run.stop()
            setCompare(!compare)
          }}
        >
          <Columns2 aria-hidden />
          {t('playground.compare')}
        </Button>
        {compare &&
          (anyRunning ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => {
                for (const { column } of active) column.run.stop()
              }}
            >
              <Square aria-hidden />
              {t('playground.stopBoth')}
            </Button>
          ) : (
            <Button
              size="sm"
              disabled={!allRunnable}
              onClick={() => {
                for (const { column } of active) start(column)
              }}
            >
              <Play aria-hidden />
              {t('playground.runBoth')}
            </Button>
          ))}
        {compare && <p className="text-xs text-muted-foreground">{t('playground.compareHint')}</p>}
      </div>
      {(fields.length > 0 || placeholders.length > 0) && (
        <div className="grid gap-4 md:grid-cols-2">
          {fields.length > 0 && (
            <VariableFields
              fields={fields}
              values={values}
              onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
              problems={problems}
              label={t('playground.variables')}
            />
          )}
          {placeholders.length > 0 && (
            <PlaceholderFields names={placeholders} value={filled} onChange={setFilled} />
          )}
        </div>
      )}
      <div className={compare ? 'grid gap-4 lg:grid-cols-2' : undefined}>
        {active.map(({ column }, index) => {
          const result = compiled[index]
          return (
            <PlaygroundColumn
              key={index === 0 ? 'a' : 'b'}
              column={column}
              name={compare ? t(index === 0 ? 'playground.columnA' : 'playground.columnB') : null}
              type={type}
              promptId={promptId}
              current={current}
              versions={choices}
              providers={providers}
              canEdit={canEdit}
              runnable={Boolean(result?.ok)}
              problems={
                result && !result.ok && 'problems' in result && result.problems.length > 0
                  ? result.problems.map(problemText).join(' · ')
                  : null
              }
              onRun={() => start(column)}
              compare={compare}
            />
          )
        })}
      </div>
      <p className="text-xs text-muted-foreground">{t('playground.through')}</p>
    </div>
  )
}

/**
 * The prompt page's playground: a version of the prompt (or an edited draft of it) run against a
 * model of a provider the user may use (Settings → Models), the answer streamed in through our
 * server; two side by side to compare.
 */
export function PlaygroundCard({
  promptId,
  type,
  current,
  canEdit,
}: {
  promptId: string
  type: PromptType
  current: PromptVersion
  /** The viewer may save versions of the prompt ("Save as new version"). */
  canEdit: boolean
}) {
  const { t } = useTranslation('models')
  const headingId = useId()
  const providers = useUsableProviders()

  let content: ReactNode
  if (providers.isPending) content = <Spinner label={t('playground.loadingProviders')} />
  else if (providers.isError)
    content = (
      <RetryAlert
        title={errorText(providers.error, t('playground.providersFailed'))}
        onRetry={() => void providers.refetch()}
      />
    )
  else if (providers.data.length === 0)
    content = (
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground">{t('playground.noProviders')}</p>
        <Button asChild variant="outline">
          <Link to="/settings/models">{t('playground.addProvider')}</Link>
        </Button>
      </div>
    )
  else
    content = (
      <Playground
        promptId={promptId}
        type={type}
        current={current}
        providers={providers.data}
        canEdit={canEdit}
      />
    )

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader className="space-y-1">
        <CardTitle id={headingId} className="flex items-center gap-2">
          <Sparkles aria-hidden className="size-4 text-muted-foreground" />
          {t('playground.title')}
        </CardTitle>
        <p className="text-sm text-muted-foreground">{t('playground.description')}</p>
      </CardHeader>
      <CardContent>{content}</CardContent>
    </Card>
  )
}
