import { useQuery } from '@tanstack/react-query'
import { FlaskConical } from 'lucide-react'
import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { RENDER_LIMITS } from '../../../domain/bounded-render.ts'
import type { PromptType } from '../../../domain/prompt-names.ts'
import { parseReferences } from '../../../domain/prompt-references.ts'
import {
  compilePrompt,
  VARIABLE_LIMITS,
  type ValueProblem,
  type VariableDeclaration,
  variablesOfBody,
} from '../../../domain/prompt-variables.ts'
import type { PromptVersion } from '../../../domain/prompts.ts'
import { Alert, RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select, Textarea } from '../../components/ui/input.tsx'
import { Spinner } from '../../components/ui/skeleton.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { CopyButton } from './copy-button.tsx'
import { resolvedVersionQuery } from './queries.ts'

/** The declared variables, then the ones the body uses without a declaration (as plain text). */
export function variableFieldsOf(type: PromptType, body: string, declared: readonly VariableDeclaration[]) {
  const names = new Set(declared.map((declaration) => declaration.name))
  const undeclared: VariableDeclaration[] = variablesOfBody(type, body)
    .filter((name) => !names.has(name))
    .map((name) => ({ name, type: 'string', required: false, default: null, description: null, values: [] }))
  return [...declared, ...undeclared]
}

/** The form's text as compile takes it: a list field holds one item per line. */
export function compileValuesOf(fields: readonly VariableDeclaration[], values: Record<string, string>) {
  const compiled: Record<string, unknown> = { ...values }
  for (const field of fields) {
    const text = values[field.name]
    if (field.type === 'list' && text) {
      compiled[field.name] = text
        .split('\n')
        .map((line) => line.trim())
        .filter(Boolean)
    }
  }
  return compiled
}

function ValueInput({
  declaration,
  value,
  onChange,
  ...control
}: {
  declaration: VariableDeclaration
  value: string
  onChange: (value: string) => void
  /** id and aria attributes from the Field. */
  id?: string
}) {
  const { t } = useTranslation('craft')
  const placeholder = declaration.default === null ? undefined : String(declaration.default)
  switch (declaration.type) {
    case 'list':
    case 'text':
      return (
        <Textarea
          {...control}
          rows={4}
          value={value}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
        />
      )
    case 'number':
      return (
        <Input
          {...control}
          type="number"
          step="any"
          value={value}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
        />
      )
    case 'boolean':
      return (
        <Select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">
            {placeholder ? `${t('tryIt.choose')} (${placeholder})` : t('tryIt.choose')}
          </option>
          <option value="true">{t('tryIt.yes')}</option>
          <option value="false">{t('tryIt.no')}</option>
        </Select>
      )
    case 'enum':
      return (
        <Select {...control} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">
            {placeholder ? `${t('tryIt.choose')} (${placeholder})` : t('tryIt.choose')}
          </option>
          {declaration.values.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </Select>
      )
    default:
      return (
        <Input
          {...control}
          value={value}
          placeholder={placeholder}
          onChange={(event) => onChange(event.target.value)}
        />
      )
  }
}

/**
 * The detail page's 'Try it'. A body with references is resolved by the server (the same resolver
 * as the API's compile and the Langfuse fetch) only when the user asks for it: resolving reads
 * every included prompt, which opening the page should not cost. A broken reference, or one that
 * resolves past the server's bounds, shows its error.
 */
export function TryItCard({ type, version }: { type: PromptType; version: PromptVersion }) {
  const { t } = useTranslation('craft')
  const hasReferences = useMemo(() => parseReferences(version.body).length > 0, [version.body])
  const [requested, setRequested] = useState(false)
  const resolved = useQuery({
    ...resolvedVersionQuery(version.promptId, version.id),
    enabled: hasReferences && requested,
  })
  if (!hasReferences) return <TryItForm type={type} version={version} body={version.body} />
  if (!requested || resolved.isPending || resolved.isError) {
    return (
      <Card role="region" aria-label={t('tryIt.title')}>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <FlaskConical aria-hidden className="size-4 text-muted-foreground" />
            {t('tryIt.title')}
          </CardTitle>
        </CardHeader>
        <CardContent>
          {!requested ? (
            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-muted-foreground">{t('tryIt.onDemand')}</p>
              <Button variant="outline" onClick={() => setRequested(true)}>
                {t('tryIt.resolve')}
              </Button>
            </div>
          ) : resolved.isPending ? (
            <Spinner label={t('tryIt.resolving')} />
          ) : (
            <RetryAlert
              title={errorText(resolved.error, t('tryIt.resolveFailed'))}
              onRetry={() => void resolved.refetch()}
            />
          )}
        </CardContent>
      </Card>
    )
  }
  return <TryItForm type={type} version={version} body={resolved.data.body} />
}

/**
 * The variables' inputs, one per field, typed by the version's declarations, with the compile's
 * problems next to their fields (a missing required value is said elsewhere, once for all).
 * "Try it" and the playground fill their values with it.
 */
export function VariableFields({
  fields,
  values,
  onChange,
  problems,
  label,
}: {
  fields: readonly VariableDeclaration[]
  values: Record<string, string>
  onChange: (name: string, value: string) => void
  problems: readonly ValueProblem[]
  /** The form's accessible name. */
  label: string
}) {
  const { t } = useTranslation('craft')
  const problemText = useProblemText(fields)
  return (
    <form className="space-y-3" onSubmit={(event) => event.preventDefault()} aria-label={label}>
      {fields.map((field) => {
        const problem = problems.find((entry) => entry.name === field.name)
        return (
          <Field
            key={field.name}
            label={
              <>
                <code className="font-mono">{field.name}</code>
                {field.required && <span aria-hidden> *</span>}
                {field.required && <span className="sr-only"> ({t('variables.required')})</span>}
              </>
            }
            hint={field.description ?? (field.type === 'list' ? t('tryIt.listHint') : undefined)}
            error={problem && problem.problem !== 'missing' ? problemText(problem) : undefined}
          >
            <ValueInput
              declaration={field}
              value={values[field.name] ?? ''}
              onChange={(value) => onChange(field.name, value)}
            />
          </Field>
        )
      })}
    </form>
  )
}

/** What is wrong with a value, in words. */
export function useProblemText(fields: readonly VariableDeclaration[]) {
  const { t } = useTranslation('craft')
  const fieldType = (name: string) => fields.find((field) => field.name === name)?.type ?? 'string'
  return ({ name, problem }: ValueProblem) => {
    switch (problem) {
      case 'missing':
        return t('tryIt.requiredMissing', { name })
      case 'enum':
        return t('tryIt.notInEnum', { name })
      case 'listTooLong':
        return t('tryIt.listTooLong', { name, max: VARIABLE_LIMITS.listItems })
      case 'notScalar':
        return t('tryIt.notScalar', { name })
      default:
        return t('tryIt.wrongType', { name, type: t(`variables.type_${fieldType(name)}`) })
    }
  }
}

/**
 * One field per variable of the (resolved) body, typed by the version's declarations, and the
 * compiled prompt, compiled as the API's compile does it (the same domain function), with Copy.
 */
function TryItForm({ type, version, body }: { type: PromptType; version: PromptVersion; body: string }) {
  const { t } = useTranslation('craft')
  const headingId = useId()
  const fields = useMemo(() => variableFieldsOf(type, body, version.variables), [type, body, version])
  const [values, setValues] = useState<Record<string, string>>({})
  // The same function and limits as the API's compile, so a value refused there is refused here.
  const result = useMemo(
    () => compilePrompt(type, body, version.variables, compileValuesOf(fields, values)),
    [type, body, version, fields, values],
  )
  const problemText = useProblemText(fields)
  const compiledText = result.ok
    ? typeof result.prompt === 'string'
      ? result.prompt
      : JSON.stringify(result.prompt, null, 2)
    : ''

  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="space-y-1">
          <CardTitle id={headingId} className="flex items-center gap-2">
            <FlaskConical aria-hidden className="size-4 text-muted-foreground" />
            {t('tryIt.title')}
          </CardTitle>
          <p className="text-sm text-muted-foreground">
            {fields.length > 0 ? t('tryIt.description') : t('tryIt.noVariables')}
          </p>
        </div>
        {result.ok && <CopyButton kind="content" text={compiledText} label={t('tryIt.copy')} />}
      </CardHeader>
      <CardContent className="grid gap-4 md:grid-cols-2">
        {fields.length > 0 && (
          <VariableFields
            fields={fields}
            values={values}
            onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
            problems={result.ok ? [] : result.problems}
            label={t('tryIt.title')}
          />
        )}
        <div className={fields.length > 0 ? 'min-w-0 space-y-1.5' : 'min-w-0 space-y-1.5 md:col-span-2'}>
          <p className="text-sm font-medium">{t('tryIt.compiled')}</p>
          {result.ok ? (
            <CodeBlock label={t('tryIt.compiled')}>{compiledText}</CodeBlock>
          ) : 'templateError' in result ? (
            <Alert tone="error" title={t('tryIt.templateInvalid', { section: '{{#section}}' })} />
          ) : 'limit' in result ? (
            <Alert
              tone="error"
              title={
                result.limit === 'output'
                  ? t('tryIt.tooLong', { max: RENDER_LIMITS.output.toLocaleString(currentLanguage()) })
                  : t('tryIt.tooMuchWork')
              }
            />
          ) : (
            <Alert tone="info" title={result.problems.map(problemText).join(' · ')} />
          )}
        </div>
      </CardContent>
    </Card>
  )
}
