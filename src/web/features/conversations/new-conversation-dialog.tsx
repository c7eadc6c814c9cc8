import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { z } from 'zod'
import { newConversationForm, toCreateConversationInput } from '../../../domain/conversations.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { DialogContent, DialogFooter, Dialog as DialogRoot } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select, Textarea } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { applyServerErrors, fieldError } from '../../lib/forms.ts'
import { TeamOptions, useMyTeams } from '../teams/index.ts'
import { useCreateConversation } from './conversation-queries.ts'

type FormInput = z.input<typeof newConversationForm>
type FormOutput = z.output<typeof newConversationForm>

/**
 * New Conversation dialog: title, the team selector (only for users with teams), an optional
 * first message and comma-separated tags. Opens the new conversation when it is created.
 */
export function NewConversationDialog({
  open,
  onOpenChange,
  defaultTeamId,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  defaultTeamId?: string
}) {
  const { t } = useTranslation('conversations')
  const navigate = useNavigate()
  const teams = useMyTeams().data ?? []
  const create = useCreateConversation()
  const [formError, setFormError] = useState<string | null>(null)
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(newConversationForm),
    defaultValues: { title: '', teamId: '', firstMessage: '', tags: '' },
  })
  const { errors, isSubmitting } = form.formState

  useEffect(() => {
    if (open) {
      setFormError(null)
      form.reset({ title: '', teamId: defaultTeamId ?? '', firstMessage: '', tags: '' })
    }
  }, [open, defaultTeamId, form])

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null)
    try {
      const conversation = await create.mutateAsync(toCreateConversationInput(values))
      toast({ title: t('create.success'), tone: 'success' })
      onOpenChange(false)
      navigate(`/conversations/${conversation.id}`)
    } catch (error) {
      const text = applyServerErrors(form.setError, error, t('create.failed'))
      setFormError(text)
      toast({ title: t('create.failed'), description: text, tone: 'error' })
    }
  })

  return (
    <DialogRoot open={open} onOpenChange={onOpenChange}>
      <DialogContent title={t('create.title')} description={t('create.description')}>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          {formError && <Alert tone="error">{formError}</Alert>}
          <Field label={t('create.titleLabel')} error={fieldError(errors, 'title')}>
            <Input autoFocus placeholder={t('create.titlePlaceholder')} {...form.register('title')} />
          </Field>
          {teams.length > 0 && (
            <Field label={t('create.team')} error={fieldError(errors, 'teamId')}>
              <Select {...form.register('teamId')}>
                <TeamOptions teams={teams} noneLabel={t('create.personal')} />
              </Select>
            </Field>
          )}
          <Field label={t('create.firstMessage')} error={fieldError(errors, 'firstMessage')}>
            <Textarea
              rows={3}
              placeholder={t('create.firstMessagePlaceholder')}
              {...form.register('firstMessage')}
            />
          </Field>
          <Field label={t('create.tags')} hint={t('create.tagsHint')} error={fieldError(errors, 'tags')}>
            <Input placeholder={t('create.tagsPlaceholder')} {...form.register('tags')} />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)} disabled={isSubmitting}>
              {t('detail.cancel')}
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? t('create.submitting') : t('create.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </DialogRoot>
  )
}
