import { zodResolver } from '@hookform/resolvers/zod'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import type { z } from 'zod'
import { createTeamInput, TEAM_NAME_MAX } from '../../../domain/teams.ts'
import { Button, type ButtonProps } from '../../components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { fieldError, reportSubmitError } from '../../lib/forms.ts'
import { useCreateTeam } from './queries.ts'

/** 'Create team': the creator becomes the new team's admin and lands on its management page. */
export function CreateTeamDialog({
  variant = 'primary',
  size,
}: {
  variant?: ButtonProps['variant']
  size?: ButtonProps['size']
}) {
  const { t } = useTranslation('teams')
  const { t: tc } = useTranslation('common')
  const [open, setOpen] = useState(false)
  const navigate = useNavigate()
  const create = useCreateTeam()
  const form = useForm<z.input<typeof createTeamInput>, unknown, z.output<typeof createTeamInput>>({
    resolver: zodResolver(createTeamInput),
    defaultValues: { name: '' },
  })
  const { errors, isSubmitting } = form.formState

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      const team = await create.mutateAsync(input)
      toast({ title: t('create.created'), tone: 'success' })
      setOpen(false)
      navigate(`/team/${team.id}/manage`)
    } catch (error) {
      reportSubmitError(form.setError, error, t('create.failed'))
    }
  })

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (!next) form.reset()
      }}
    >
      <DialogTrigger asChild>
        <Button variant={variant} size={size}>
          <Plus />
          {t('list.createTeam')}
        </Button>
      </DialogTrigger>
      <DialogContent title={t('create.title')} description={t('create.description')}>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <Field label={t('create.name')} error={fieldError(errors, 'name')}>
            <Input
              autoFocus
              maxLength={TEAM_NAME_MAX}
              placeholder={t('create.namePlaceholder')}
              {...form.register('name')}
            />
          </Field>
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              {tc('cancel')}
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? t('create.creating') : t('create.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}
