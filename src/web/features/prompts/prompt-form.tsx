import { zodResolver } from '@hookform/resolvers/zod'
import { FileDown, Lock, type LucideIcon, MessagesSquare, Text, Users } from 'lucide-react'
import { type ReactNode, useEffect, useId } from 'react'
import { Controller, type UseFormReturn, useForm, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import type { z } from 'zod'
import { PROMPT_NAME_MAX } from '../../../domain/prompt-names.ts'
import {
  PROMPT_LIMITS,
  type PromptVersion,
  type PromptVisibility,
  promptFormSchema,
} from '../../../domain/prompts.ts'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select, Textarea } from '../../components/ui/input.tsx'
import { cn } from '../../lib/cn.ts'
import { fieldError } from '../../lib/forms.ts'
import { TeamOptions, useMyTeams } from '../teams/index.ts'
import { ChatMessagesEditor, chatBodyOf, chatText } from './chat-editor.tsx'
import { CopyButton } from './copy-button.tsx'
import { formMarkdown, useMarkdownExport } from './markdown.ts'
import { TagInput } from './tag-input.tsx'

type PromptFormInput = z.input<typeof promptFormSchema>
export type PromptFormOutput = z.output<typeof promptFormSchema>
export type PromptForm = UseFormReturn<PromptFormInput, unknown, PromptFormOutput>

export const emptyPromptForm: PromptFormInput = {
  title: '',
  name: '',
  description: '',
  body: '',
  changelog: '',
  tags: [],
  visibility: 'private',
  teamId: '',
  type: 'text',
  config: '',
  variables: [],
}

/** The create and edit form: the shared domain schema validates here and again on the server. */
export function usePromptForm(defaultValues: PromptFormInput): PromptForm {
  return useForm<PromptFormInput, unknown, PromptFormOutput>({
    resolver: zodResolver(promptFormSchema),
    defaultValues,
    mode: 'onTouched',
  })
}

/** Submitting needs a title and a body. */
function useCanSubmit(form: PromptForm): boolean {
  const [title, body] = useWatch({ control: form.control, name: ['title', 'body'] })
  return title.trim() !== '' && body.trim() !== ''
}

/** Radio choices shown as cards, each with an icon, a label and a hint (visibility, type). */
function ChoiceCards<V extends string>({
  name,
  options,
  value,
  onChange,
  onBlur,
}: {
  name: string
  options: readonly { value: V; icon: LucideIcon; label: string; hint: string; disabled?: boolean }[]
  value: V
  onChange: (value: V) => void
  onBlur: () => void
}) {
  return (
    <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
      {options.map((option) => (
        <label
          key={option.value}
          className={cn(
            'flex cursor-pointer items-start gap-3 rounded-lg border p-3 transition-colors has-[:checked]:border-primary has-[:checked]:bg-accent/50 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
            option.disabled && 'cursor-not-allowed opacity-60',
          )}
        >
          <input
            type="radio"
            name={name}
            value={option.value}
            checked={value === option.value}
            disabled={option.disabled}
            onChange={() => onChange(option.value)}
            onBlur={onBlur}
            className="mt-1 accent-[var(--primary)]"
            aria-describedby={`${name}-${option.value}-hint`}
          />
          <span className="space-y-0.5">
            <span className="flex items-center gap-1.5 text-sm font-medium">
              <option.icon aria-hidden className="size-4 text-muted-foreground" />
              {option.label}
            </span>
            <span id={`${name}-${option.value}-hint`} className="block text-xs text-muted-foreground">
              {option.hint}
            </span>
          </span>
        </label>
      ))}
    </div>
  )
}

function VisibilityField({ form }: { form: PromptForm }) {
  const { t } = useTranslation('prompts')
  const groupId = useId()
  const teams = useMyTeams()
  const visibility = useWatch({ control: form.control, name: 'visibility' })
  const teamList = teams.data ?? []
  const noTeams = teams.isSuccess && teamList.length === 0

  // With exactly one team there is nothing to choose.
  useEffect(() => {
    if (visibility === 'team' && teamList.length === 1 && !form.getValues('teamId')) {
      form.setValue('teamId', teamList[0]!.id, { shouldValidate: true })
    }
  }, [visibility, teamList, form])

  const options: { value: PromptVisibility; icon: LucideIcon; hint: string; disabled: boolean }[] = [
    { value: 'private', icon: Lock, hint: t('form.privateHint'), disabled: false },
    { value: 'team', icon: Users, hint: t('form.teamHint'), disabled: !teams.isSuccess || noTeams },
  ]
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1.5 text-sm font-medium">{t('form.visibility')}</legend>
      <Controller
        control={form.control}
        name="visibility"
        render={({ field }) => (
          <ChoiceCards
            name={`${groupId}-visibility`}
            options={options.map((option) => ({ ...option, label: t(`visibility.${option.value}`) }))}
            value={field.value}
            onChange={field.onChange}
            onBlur={field.onBlur}
          />
        )}
      />
      {teams.isPending && <p className="text-xs text-muted-foreground">{t('form.teamsLoading')}</p>}
      {noTeams && <p className="text-xs text-muted-foreground">{t('form.noTeams')}</p>}
      {visibility === 'team' && teamList.length > 0 && (
        <Field label={t('form.team')} error={fieldError(form.formState.errors, 'teamId')}>
          <Select {...form.register('teamId')}>
            <TeamOptions teams={teamList} noneLabel={t('form.chooseTeam')} />
          </Select>
        </Field>
      )}
      {visibility === 'team' && teamList.length === 0 && fieldError(form.formState.errors, 'teamId') && (
        <p role="alert" className="text-xs font-medium text-destructive">
          {fieldError(form.formState.errors, 'teamId')}
        </p>
      )}
    </fieldset>
  )
}

/**
 * Text or chat, chosen when the prompt is created (the type never changes after). Switching keeps
 * what was written: text becomes one system message, messages become text.
 */
function TypeField({ form }: { form: PromptForm }) {
  const { t } = useTranslation('prompts')
  const groupId = useId()
  const options = [
    {
      value: 'text',
      icon: Text,
      hint: t('form.typeTextHint', { example: `{{${t('form.typeTextExampleName')}}}` }),
    },
    { value: 'chat', icon: MessagesSquare, hint: t('form.typeChatHint') },
  ] as const
  return (
    <fieldset className="space-y-2">
      <legend className="mb-1.5 text-sm font-medium">{t('form.type')}</legend>
      <Controller
        control={form.control}
        name="type"
        render={({ field }) => (
          <ChoiceCards
            name={`${groupId}-type`}
            options={options.map((option) => ({ ...option, label: t(`form.type_${option.value}`) }))}
            value={field.value}
            onBlur={field.onBlur}
            onChange={(next) => {
              if (field.value === next) return
              const body = form.getValues('body')
              const converted =
                next === 'chat'
                  ? body.trim() === ''
                    ? ''
                    : chatBodyOf([{ role: 'system', content: body }])
                  : chatText(body)
              field.onChange(next)
              form.setValue('body', converted, { shouldDirty: true })
            }}
          />
        )}
      />
    </fieldset>
  )
}

/** A text prompt's content as one text; a chat prompt's as message rows. */
function BodyField({ form }: { form: PromptForm }) {
  const { t } = useTranslation('prompts')
  const type = useWatch({ control: form.control, name: 'type' })
  const error = fieldError(form.formState.errors, 'body')
  if (type === 'chat') {
    return (
      <Controller
        control={form.control}
        name="body"
        render={({ field }) => (
          <ChatMessagesEditor value={field.value} onChange={field.onChange} error={error} />
        )}
      />
    )
  }
  return (
    <Field
      label={t('form.body')}
      error={error}
      hint={t('form.bodyTip', {
        topic: `{{${t('form.bodyTipTopic')}}}`,
        audience: `{{${t('form.bodyTipAudience')}}}`,
      })}
    >
      <Textarea
        rows={12}
        className="min-h-48 font-mono text-[13px]"
        placeholder={t('form.bodyPlaceholder')}
        maxLength={PROMPT_LIMITS.body}
        spellCheck={false}
        {...form.register('body')}
      />
    </Field>
  )
}

/**
 * Title, name, type (when creating), description, content (text with the variables tip, or chat
 * messages), optional changelog, config, visibility and tags.
 */
export function PromptFields({
  form,
  withChangelog = false,
  withType = false,
  bodyStatus,
}: {
  form: PromptForm
  withChangelog?: boolean
  /** Offer text or chat (only when creating: a prompt's type never changes). */
  withType?: boolean
  /** A note under the content, e.g. which version was just loaded into it. */
  bodyStatus?: string | null
}) {
  const { t } = useTranslation('prompts')
  const { errors } = form.formState
  return (
    <div className="space-y-5">
      <Field label={t('form.title')} error={fieldError(errors, 'title')}>
        <Input
          placeholder={t('form.titlePlaceholder')}
          maxLength={PROMPT_LIMITS.title}
          autoComplete="off"
          {...form.register('title')}
        />
      </Field>
      <Field label={t('form.name')} error={fieldError(errors, 'name')} hint={t('form.nameHint')}>
        <Input
          placeholder={withType ? t('form.namePlaceholder') : undefined}
          maxLength={PROMPT_NAME_MAX}
          autoComplete="off"
          spellCheck={false}
          className="font-mono text-[13px]"
          {...form.register('name')}
        />
      </Field>
      {withType && <TypeField form={form} />}
      <Field label={t('form.description')} error={fieldError(errors, 'description')}>
        <Textarea
          rows={2}
          className="min-h-16"
          placeholder={t('form.descriptionPlaceholder')}
          maxLength={PROMPT_LIMITS.description}
          {...form.register('description')}
        />
      </Field>
      <BodyField form={form} />
      {bodyStatus && (
        <p role="status" className="-mt-3 text-sm font-medium text-success">
          {bodyStatus}
        </p>
      )}
      {withChangelog && (
        <Field
          label={t('form.changelog')}
          error={fieldError(errors, 'changelog')}
          hint={t('form.changelogHint')}
        >
          <Input
            placeholder={t('form.changelogPlaceholder')}
            maxLength={PROMPT_LIMITS.changelog}
            autoComplete="off"
            {...form.register('changelog')}
          />
        </Field>
      )}
      <details className="group rounded-lg border p-3" open={Boolean(form.getValues('config'))}>
        <summary className="cursor-pointer text-sm font-medium">{t('form.config')}</summary>
        <Field
          className="mt-3"
          label={t('form.configLabel')}
          error={fieldError(errors, 'config')}
          hint={t('form.configHint')}
        >
          <Textarea
            rows={4}
            className="min-h-24 font-mono text-[13px]"
            placeholder='{"model": "gpt-4o", "temperature": 0.2}'
            spellCheck={false}
            {...form.register('config')}
          />
        </Field>
      </details>
      <VisibilityField form={form} />
      <Controller
        control={form.control}
        name="tags"
        render={({ field }) => (
          <TagInput value={field.value} onChange={field.onChange} error={fieldError(errors, 'tags')} />
        )}
      />
    </div>
  )
}

/**
 * Below the fields: the page's messages, submit (disabled while blank or saving), 'Copy as Markdown'
 * of what the form holds (with the version it started from, when editing), Cancel, the page's
 * further actions, and why submitting is disabled.
 */
export function PromptFormActions({
  form,
  submitLabel,
  submittingLabel,
  cancelTo,
  blankHint,
  baseVersion,
  notices,
  children,
}: {
  form: PromptForm
  submitLabel: string
  submittingLabel: string
  cancelTo: string
  blankHint: string
  baseVersion?: Pick<PromptVersion, 'versionNumber' | 'changelog'>
  notices?: ReactNode
  children?: ReactNode
}) {
  const { t } = useTranslation('prompts')
  const canSubmit = useCanSubmit(form)
  const toMarkdown = useMarkdownExport()
  const { isSubmitting } = form.formState
  const markdown = () => {
    const values = form.getValues()
    return formMarkdown(
      toMarkdown,
      values,
      baseVersion && {
        versionNumber: baseVersion.versionNumber,
        changelog: values.changelog?.trim() || baseVersion.changelog,
      },
    )
  }
  return (
    <div className="space-y-3 border-t pt-5">
      {notices}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={!canSubmit || isSubmitting}>
          {isSubmitting ? submittingLabel : submitLabel}
        </Button>
        <CopyButton
          kind="markdown"
          size="md"
          icon={<FileDown aria-hidden />}
          label={t('form.copyMarkdown')}
          disabled={!canSubmit}
          text={markdown}
        />
        <Button asChild variant="ghost">
          <Link to={cancelTo}>{t('form.cancel')}</Link>
        </Button>
        {children}
      </div>
      {!canSubmit && <p className="text-xs text-muted-foreground">{blankHint}</p>}
    </div>
  )
}
