import { Mail, RotateCw, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import type { TeamAccess, TeamInvitation } from '../../../domain/teams.ts'
import { formatShortDate } from '../../../domain/time.ts'
import { ConfirmAction } from '../../components/confirm-action.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { useResendInvitation, useRevokeInvitation, useTeamInvitations } from './invitations.ts'

/** Open invitations with their status; admins resend (new link, 7 more days) or revoke them. */
export function InvitationsList({ teamId, access }: { teamId: string; access: TeamAccess }) {
  const { t } = useTranslation('teams')
  const invitations = useTeamInvitations(teamId)
  const resend = useResendInvitation(teamId)
  const revoke = useRevokeInvitation(teamId)
  const date = (value: string) => formatShortDate(value, currentLanguage())

  if (invitations.isPending) {
    return (
      <LoadingSkeletons label={t('invitations.loading')}>
        <Skeleton className="h-14 w-full" />
      </LoadingSkeletons>
    )
  }
  if (invitations.isError) {
    return (
      <RetryAlert title={t('invitations.loadFailed')} onRetry={() => invitations.refetch()}>
        {errorText(invitations.error, '')}
      </RetryAlert>
    )
  }
  if (invitations.data.length === 0) {
    return <p className="py-2 text-sm text-muted-foreground">{t('invitations.empty')}</p>
  }

  const onResend = (invitation: TeamInvitation) =>
    resend.mutate(invitation.id, {
      onSuccess: () =>
        toast({
          title: t('invitations.resent'),
          description: t('invite.sentText', { email: invitation.email }),
          tone: 'success',
        }),
      onError: (error) =>
        toast({ title: t('invitations.resendFailed'), description: errorText(error, ''), tone: 'error' }),
    })

  return (
    <ul className="divide-y" aria-label={t('invitations.title')}>
      {invitations.data.map((invitation) => (
        <li key={invitation.id} className="flex flex-wrap items-start gap-3 py-3 sm:items-center">
          <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-muted">
            <Mail aria-hidden className="size-4 text-muted-foreground" />
          </span>
          <div className="min-w-0 flex-1">
            <p className="flex flex-wrap items-center gap-1.5 text-sm font-medium">
              <span className="min-w-0 wrap-anywhere">{invitation.email}</span>
              <Badge variant={invitation.status === 'pending' ? 'warning' : 'destructive'}>
                {t(`invitations.status.${invitation.status}`)}
              </Badge>
              <Badge variant="outline">{t(`roles.${invitation.role}`)}</Badge>
            </p>
            <p className="text-xs text-muted-foreground wrap-anywhere">
              {invitation.status === 'expired'
                ? t('invitations.expiredOn', { date: date(invitation.expiresAt) })
                : t('invitations.expires', { date: date(invitation.expiresAt) })}
              {invitation.invitedByEmail &&
                ` · ${t('invitations.invitedBy', { email: invitation.invitedByEmail })}`}
            </p>
          </div>
          {access.invite_members && (
            <div className="flex w-full items-center gap-1 pl-12 sm:w-auto sm:pl-0">
              <Button
                variant="outline"
                size="sm"
                aria-label={t('invitations.resendLabel', { email: invitation.email })}
                disabled={resend.isPending && resend.variables === invitation.id}
                onClick={() => onResend(invitation)}
              >
                <RotateCw />
                {t('invitations.resend')}
              </Button>
              <ConfirmAction
                variant="ghost"
                icon={<X />}
                action={revoke}
                variables={invitation.id}
                texts={{
                  action: t('invitations.revoke'),
                  actionLabel: t('invitations.revokeLabel', { email: invitation.email }),
                  title: t('invitations.revokeTitle'),
                  text: t('invitations.revokeText', { email: invitation.email }),
                  done: t('invitations.revoked'),
                  failed: t('invitations.revokeFailed'),
                }}
              />
            </div>
          )}
        </li>
      ))}
    </ul>
  )
}
