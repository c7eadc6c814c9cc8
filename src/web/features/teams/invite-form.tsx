import { zodResolver } from '@hookform/resolvers/zod'
import { Send } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { teamRoles } from '../../../domain/permissions.ts'
import { inviteInput } from '../../../domain/teams.ts'
import { Button } from '../../components/ui/button.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { fieldError, reportSubmitError } from '../../lib/forms.ts'
import { useEntitlements, usePaywall } from '../plans/index.ts'
import { useInviteMember } from './invitations.ts'

/**
 * Invite by email. `compact` is the
 * dashboard's Quick Invite: email only, the role stays member.
 */
export function InviteForm({ teamId, compact = false }: { teamId: string; compact?: boolean }) {
  const { t } = useTranslation('teams')
  const invite = useInviteMember(teamId)
  const form = useForm<z.input<typeof inviteInput>, unknown, z.output<typeof inviteInput>>({
    resolver: zodResolver(inviteInput),
    defaultValues: { email: '', role: 'member' },
  })
  const { errors, isSubmitting } = form.formState
  // The team's plan: members plus pending invitations within its limit.
  const entitlements = useEntitlements(teamId)
  const paywall = usePaywall()

  const onSubmit = form.handleSubmit(async (input) => {
    if (!paywall.allows(entitlements.data, 'addMember')) return
    try {
      const invitation = await invite.mutateAsync(input)
      toast({
        title: t('invite.sent'),
        description: t('invite.sentText', { email: invitation.email }),
        tone: 'success',
      })
      form.reset({ email: '', role: input.role })
    } catch (error) {
      if (paywall.showIfPlanLimit(error)) return
      reportSubmitError(form.setError, error, t('invite.failed'))
    }
  })

  return (
    <>
      {paywall.dialog}
      <form
        noValidate
        onSubmit={onSubmit}
        aria-label={compact ? t('dashboard.quickInvite') : t('invite.title')}
        className="flex flex-col gap-3 sm:flex-row sm:items-start"
      >
        <Field label={t('invite.email')} error={fieldError(errors, 'email')} className="flex-1">
          <Input
            type="email"
            autoComplete="off"
            placeholder={t('invite.emailPlaceholder')}
            {...form.register('email')}
          />
        </Field>
        {!compact && (
          <Field label={t('invite.role')} error={fieldError(errors, 'role')} className="sm:w-40">
            <Select {...form.register('role')}>
              {teamRoles.map((role) => (
                <option key={role} value={role}>
                  {t(`roles.${role}`)}
                </option>
              ))}
            </Select>
          </Field>
        )}
        <Button type="submit" disabled={isSubmitting} className="sm:mt-6.5">
          <Send />
          {isSubmitting ? t('invite.sending') : compact ? t('invite.quickSubmit') : t('invite.submit')}
        </Button>
      </form>
    </>
  )
}
