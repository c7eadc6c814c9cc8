import { Braces, Plus, X } from 'lucide-react'
import { useId } from 'react'
import { useFieldArray, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import {
  lintVariables,
  type VariableDeclarationInput,
  variablesOfBody,
  variableTypes,
} from '../../../domain/prompt-variables.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { fieldError } from '../../lib/forms.ts'
import type { PromptForm } from './prompt-form.tsx'

/** What the form holds: the body's variables and their declarations. */
function useVariableState(form: PromptForm) {
  const [type, body, declared] = useWatch({ control: form.control, name: ['type', 'body', 'variables'] })
  const declarations = (declared ?? []) as VariableDeclarationInput[]
  let used: string[] = []
  let lint = { undeclared: [] as string[], unused: [] as string[], singleBraces: [] as string[] }
  try {
    used = variablesOfBody(type, body)
    lint = lintVariables(type, body, declarations)
  } catch {
    // A chat body being typed may not parse yet; it has no variables until it does.
  }
  return { used, lint, declarations }
}

/** A default as its type stores it: numbers and booleans as such when they read as one. */
function typedDefault(type: string, text: string): string | number | boolean | null {
  if (text === '') return null
  if (type === 'number' && Number.isFinite(Number(text))) return Number(text)
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

/**
 * Lint messages (shown while editing and on save, never blocking): variables used but not
 * declared, declared but unused, and `{single}` braces that are not variables.
 */
export function VariableLint({ form }: { form: PromptForm }) {
  const { t } = useTranslation('craft')
  const { lint } = useVariableState(form)
  const messages = [
    lint.undeclared.length > 0 && t('variables.undeclared', { names: lint.undeclared.join(', ') }),
    lint.unused.length > 0 && t('variables.unused', { names: lint.unused.join(', ') }),
    lint.singleBraces.length > 0 &&
      t('variables.singleBraces', {
        names: lint.singleBraces.map((name) => `{${name}}`).join(', '),
        example: `{{${lint.singleBraces[0]}}}`,
      }),
  ].filter((message): message is string => Boolean(message))
  if (messages.length === 0) return null
  return (
    <Alert tone="info" title={t('variables.lintTitle')}>
      <ul className="list-disc space-y-0.5 pl-4">
        {messages.map((message) => (
          <li key={message}>{message}</li>
        ))}
      </ul>
    </Alert>
  )
}

/**
 * Beside the editor: the variables the body uses, each declarable with a type, required, a default,
 * a description and (for a choice) its values. Declarations are saved with the version.
 */
export function VariablesPanel({ form }: { form: PromptForm }) {
  const { t } = useTranslation('craft')
  const headingId = useId()
  const { used, declarations } = useVariableState(form)
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'variables' })
  const declaredNames = new Set(declarations.map((declaration) => declaration.name))
  const undeclared = used.filter((name) => !declaredNames.has(name))
  const { errors } = form.formState

  return (
    <Card role="region" aria-labelledby={headingId} className="h-fit min-w-0">
      <CardHeader>
        <CardTitle id={headingId} className="flex items-center gap-2">
          <Braces aria-hidden className="size-4 text-muted-foreground" />
          {t('variables.title')}
        </CardTitle>
        <p className="text-xs text-muted-foreground">{t('variables.hint', { example: '{{name}}' })}</p>
      </CardHeader>
      <CardContent className="space-y-4">
        {fields.length === 0 && undeclared.length === 0 && (
          <p className="text-sm text-muted-foreground">{t('variables.none')}</p>
        )}
        {fields.length > 0 && (
          <ul className="space-y-4">
            {fields.map((field, index) => {
              const declaration = declarations[index]
              const name = declaration?.name ?? field.name
              const type = declaration?.type ?? 'string'
              return (
                <li key={field.id} aria-label={name} className="space-y-2 rounded-md border p-3">
                  <div className="flex items-center justify-between gap-2">
                    <code className="font-mono text-sm font-semibold">{name}</code>
                    <div className="flex items-center gap-1">
                      <Badge variant={used.includes(name) ? 'success' : 'outline'}>
                        {used.includes(name) ? t('variables.used') : t('variables.notUsed')}
                      </Badge>
                      <Button
                        type="button"
                        variant="ghost"
                        size="icon-sm"
                        aria-label={t('variables.remove', { name })}
                        onClick={() => remove(index)}
                      >
                        <X aria-hidden />
                      </Button>
                    </div>
                  </div>
                  <div className="grid grid-cols-2 gap-2">
                    <Field label={t('variables.type')}>
                      <Select {...form.register(`variables.${index}.type`)}>
                        {variableTypes.map((option) => (
                          <option key={option} value={option}>
                            {t(`variables.type_${option}`)}
                          </option>
                        ))}
                      </Select>
                    </Field>
                    <Field
                      label={t('variables.default')}
                      error={fieldError(errors, `variables.${index}.default` as 'variables')}
                    >
                      <Input
                        defaultValue={declaration?.default == null ? '' : String(declaration.default)}
                        onChange={(event) =>
                          form.setValue(
                            `variables.${index}.default`,
                            typedDefault(type, event.target.value),
                            {
                              shouldDirty: true,
                            },
                          )
                        }
                      />
                    </Field>
                  </div>
                  {type === 'enum' && (
                    <Field
                      label={t('variables.values')}
                      error={fieldError(errors, `variables.${index}.values` as 'variables')}
                    >
                      <Input
                        defaultValue={(declaration?.values ?? []).join(', ')}
                        onChange={(event) =>
                          form.setValue(
                            `variables.${index}.values`,
                            event.target.value
                              .split(',')
                              .map((value) => value.trim())
                              .filter(Boolean),
                            { shouldDirty: true },
                          )
                        }
                      />
                    </Field>
                  )}
                  <Field label={t('variables.description')}>
                    <Input {...form.register(`variables.${index}.description`)} />
                  </Field>
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" {...form.register(`variables.${index}.required`)} />
                    {t('variables.required')}
                  </label>
                </li>
              )
            })}
          </ul>
        )}
        {undeclared.length > 0 && (
          <ul className="space-y-2">
            {undeclared.map((name) => (
              <li key={name} className="flex items-center justify-between gap-2">
                <code className="font-mono text-sm">{name}</code>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  aria-label={`${t('variables.declare')}: ${name}`}
                  onClick={() =>
                    append({
                      name,
                      type: 'string',
                      required: false,
                      default: null,
                      description: '',
                      values: [],
                    })
                  }
                >
                  <Plus aria-hidden />
                  {t('variables.declare')}
                </Button>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  )
}
