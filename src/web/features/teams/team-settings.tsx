import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { shortTeamId, TEAM_NAME_MAX, type TeamDetail, updateTeamInput } from '../../../domain/teams.ts'
import { formatShortDate } from '../../../domain/time.ts'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { fieldError, reportSubmitError } from '../../lib/forms.ts'
import { useRenameTeam } from './queries.ts'

/** The Settings tab: name (editable by admins), the id's first 8 characters, created date. */
export function TeamSettings({ team }: { team: TeamDetail }) {
  const { t } = useTranslation('teams')
  const rename = useRenameTeam(team.id)
  const form = useForm<z.input<typeof updateTeamInput>, unknown, z.output<typeof updateTeamInput>>({
    resolver: zodResolver(updateTeamInput),
    values: { name: team.name },
  })
  const { errors, isSubmitting, isDirty } = form.formState
  const editable = team.access.manage_team

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await rename.mutateAsync(input)
      toast({ title: t('settings.saved'), tone: 'success' })
    } catch (error) {
      reportSubmitError(form.setError, error, t('settings.saveFailed'))
    }
  })

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('settings.title')}</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <Field
            label={t('settings.name')}
            error={fieldError(errors, 'name')}
            hint={editable ? undefined : t('settings.nameAdminsOnly')}
            className="flex-1"
          >
            <Input maxLength={TEAM_NAME_MAX} readOnly={!editable} {...form.register('name')} />
          </Field>
          {editable && (
            <Button type="submit" disabled={!isDirty || isSubmitting} className="sm:mt-6.5">
              {isSubmitting ? t('settings.saving') : t('settings.save')}
            </Button>
          )}
        </form>
        <dl className="grid grid-cols-1 gap-4 text-sm sm:grid-cols-2">
          <div className="space-y-1">
            <dt className="text-muted-foreground">{t('settings.teamId')}</dt>
            <dd className="font-mono" title={team.id}>
              {shortTeamId(team.id)}
            </dd>
          </div>
          <div className="space-y-1">
            <dt className="text-muted-foreground">{t('settings.created')}</dt>
            <dd>
              {team.createdAt ? formatShortDate(team.createdAt, currentLanguage()) : t('settings.unknown')}
            </dd>
          </div>
        </dl>
        <Alert title={t('settings.comingSoon')}>{t('settings.comingSoonText')}</Alert>
      </CardContent>
    </Card>
  )
}
