import { zodResolver } from '@hookform/resolvers/zod'
import { ListRestart } from 'lucide-react'
import { useId } from 'react'
import { type FieldErrors, type UseFormSetError, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import {
  type CreateProviderInput,
  createProviderInput,
  DEFAULT_BASE_URLS,
  type ModelProvider,
  type ProviderKind,
  providerKinds,
  type UpdateProviderInput,
  updateProviderInput,
} from '../../../domain/models.ts'
import { DialogSubmitFooter } from '../../components/edit-dialog.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select, Textarea } from '../../components/ui/input.tsx'
import { errorText } from '../../lib/api.ts'
import { fieldError, fieldText } from '../../lib/forms.ts'
import { modelsOfText } from './model-names.ts'
import { useFetchModels } from './queries.ts'

/** What the form holds: the models as typed (one a line or comma-separated). */
type ProviderFormValues = {
  kind: ProviderKind
  name: string
  baseUrl: string
  apiKey: string
  models: string
  defaultModel: string
}

const asBody = (values: ProviderFormValues) => ({ ...values, models: modelsOfText(values.models) })

/** A new provider: every field checked by the same schema the server uses. */
const createSchema = z.preprocess(
  (values) => asBody(values as ProviderFormValues),
  createProviderInput,
) as unknown as z.ZodType<CreateProviderInput, ProviderFormValues>

/** A change: the kind stays; a blank key keeps the stored one. */
const updateSchema = z.preprocess((values) => {
  const { kind: _kind, apiKey, ...rest } = asBody(values as ProviderFormValues)
  return apiKey.trim() ? { ...rest, apiKey } : rest
}, updateProviderInput) as unknown as z.ZodType<UpdateProviderInput, ProviderFormValues>

const emptyProviderValues: ProviderFormValues = {
  kind: 'openai_compatible',
  name: '',
  baseUrl: '',
  apiKey: '',
  models: '',
  defaultModel: '',
}

function providerValuesOf(provider: ModelProvider): ProviderFormValues {
  return {
    kind: provider.kind,
    name: provider.name,
    baseUrl: provider.baseUrl,
    apiKey: '',
    models: provider.models.join('\n'),
    defaultModel: provider.defaultModel,
  }
}

/** A list field's error sits on the list or on one of its items (`models.3`). */
function modelsError(errors: FieldErrors<ProviderFormValues>): string | undefined {
  const error = errors.models as unknown as
    | ({ message?: unknown } & Record<number, { message?: unknown } | undefined>)
    | undefined
  if (!error) return undefined
  const item = Object.values(error).find(
    (entry): entry is { message?: unknown } =>
      typeof entry === 'object' && entry !== null && 'message' in entry,
  )
  return fieldText(error.message) ?? fieldText(item?.message)
}

/**
 * Adding (no `provider`) or changing a provider: kind, name, base URL, the key (write-only: a saved
 * provider shows its hint and keeps the key when the field is left blank), models and the default.
 * A saved provider's models can be fetched from its API (`GET /models`) into the list.
 */
export function ProviderForm({
  provider,
  submitLabel,
  pendingLabel,
  onSubmit,
}: {
  provider: ModelProvider | null
  submitLabel: string
  pendingLabel: string
  onSubmit: (
    body: CreateProviderInput | UpdateProviderInput,
    setError: UseFormSetError<ProviderFormValues>,
  ) => Promise<void>
}) {
  const { t } = useTranslation('models')
  const listId = useId()
  const form = useForm<ProviderFormValues, unknown, CreateProviderInput | UpdateProviderInput>({
    resolver: zodResolver(provider ? updateSchema : createSchema) as never,
    defaultValues: provider ? providerValuesOf(provider) : emptyProviderValues,
  })
  const { errors, isSubmitting } = form.formState
  const kind = form.watch('kind')
  const models = modelsOfText(form.watch('models'))
  return (
    <form
      onSubmit={form.handleSubmit((body) => onSubmit(body, form.setError))}
      className="space-y-4"
      noValidate
    >
      <Field
        label={t('kind')}
        hint={provider ? t('kindFixed') : undefined}
        error={fieldError(errors, 'kind')}
      >
        <Select disabled={provider !== null} {...form.register('kind')}>
          {providerKinds.map((option) => (
            <option key={option} value={option}>
              {t(`kinds.${option}`)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('name')} error={fieldError(errors, 'name')}>
        <Input placeholder={t('namePlaceholder')} autoComplete="off" {...form.register('name')} />
      </Field>
      <Field
        label={t('baseUrl')}
        hint={t(kind === 'anthropic' ? 'baseUrlHintAnthropic' : 'baseUrlHint', {
          url: DEFAULT_BASE_URLS[kind],
        })}
        error={fieldError(errors, 'baseUrl')}
      >
        <Input
          type="url"
          placeholder={DEFAULT_BASE_URLS[kind]}
          autoComplete="off"
          spellCheck={false}
          {...form.register('baseUrl')}
        />
      </Field>
      <Field
        label={t('apiKey')}
        hint={provider ? t('apiKeyKept', { hint: provider.keyHint }) : t('apiKeyHint')}
        error={fieldError(errors, 'apiKey')}
      >
        <Input
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={provider ? provider.keyHint : undefined}
          {...form.register('apiKey')}
        />
      </Field>
      <Field
        label={t('models')}
        hint={provider ? t('modelsHintSaved') : t('modelsHint')}
        error={modelsError(errors)}
        labelAside={
          provider && (
            <FetchModelsButton
              provider={provider}
              onFetched={(names) => {
                form.clearErrors('models')
                form.setValue('models', names.join('\n'), { shouldDirty: true })
                const current = form.getValues('defaultModel')
                if (!current || !names.includes(current)) form.setValue('defaultModel', names[0] ?? '')
              }}
              onFailed={(text) => form.setError('models', { type: 'server', message: text })}
            />
          )
        }
      >
        <Textarea
          rows={4}
          placeholder={'gpt-4.1-mini\nclaude-sonnet-4-5'}
          spellCheck={false}
          {...form.register('models')}
        />
      </Field>
      <Field
        label={t('defaultModel')}
        hint={t('defaultModelHint')}
        error={fieldError(errors, 'defaultModel')}
      >
        <Input list={listId} autoComplete="off" spellCheck={false} {...form.register('defaultModel')} />
      </Field>
      <datalist id={listId}>
        {models.map((model) => (
          <option key={model} value={model} />
        ))}
      </datalist>
      <DialogSubmitFooter label={submitLabel} pendingLabel={pendingLabel} pending={isSubmitting} />
    </form>
  )
}

function FetchModelsButton({
  provider,
  onFetched,
  onFailed,
}: {
  provider: ModelProvider
  onFetched: (models: string[]) => void
  onFailed: (text: string) => void
}) {
  const { t } = useTranslation('models')
  const fetchModels = useFetchModels(provider.id)
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={fetchModels.isPending}
      onClick={() =>
        fetchModels.mutate(undefined, {
          onSuccess: ({ models }) => onFetched(models),
          onError: (error) => onFailed(errorText(error, t('fetchFailed'))),
        })
      }
    >
      <ListRestart aria-hidden />
      {fetchModels.isPending ? t('fetching') : t('fetchModels')}
    </Button>
  )
}
