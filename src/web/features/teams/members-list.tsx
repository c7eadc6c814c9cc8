import { Crown, UserMinus } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { type TeamRole, teamRoles } from '../../../domain/permissions.ts'
import type { TeamAccess, TeamMember } from '../../../domain/teams.ts'
import { formatShortDate } from '../../../domain/time.ts'
import { ConfirmAction } from '../../components/confirm-action.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { currentLanguage } from '../../i18n/index.ts'
import { errorText } from '../../lib/api.ts'
import { useCurrentUser } from '../auth/index.ts'
import { useChangeMemberRole, useIsOnlyAdmin, useRemoveMember, useTeamMembers } from './members.ts'
import { TeamAvatar } from './team-avatar.tsx'

/** The Members tab's list: admins change roles from a dropdown and remove members after a confirm. */
export function MembersList({ teamId, access }: { teamId: string; access: TeamAccess }) {
  const { t } = useTranslation('teams')
  const me = useCurrentUser()
  const members = useTeamMembers(teamId)
  const onlyAdmin = useIsOnlyAdmin(teamId, me.id)
  const changeRole = useChangeMemberRole(teamId)
  const remove = useRemoveMember(teamId)

  if (members.isPending) {
    return (
      <LoadingSkeletons label={t('members.loading')} className="divide-y">
        {[0, 1, 2].map((i) => (
          <div key={i} className="flex items-center gap-3 py-3">
            <Skeleton className="size-9 rounded-full" />
            <div className="flex-1 space-y-1.5">
              <Skeleton className="h-4 w-48" />
              <Skeleton className="h-3 w-24" />
            </div>
          </div>
        ))}
      </LoadingSkeletons>
    )
  }
  if (members.isError) {
    return (
      <RetryAlert title={t('members.loadFailed')} onRetry={() => members.refetch()}>
        {errorText(members.error, '')}
      </RetryAlert>
    )
  }

  const onRoleChange = (member: TeamMember, next: TeamRole) => {
    changeRole.mutate(
      { userId: member.userId, role: next },
      {
        onSuccess: () => toast({ title: t('members.roleUpdated'), tone: 'success' }),
        onError: (error) =>
          toast({ title: t('members.roleFailed'), description: errorText(error, ''), tone: 'error' }),
      },
    )
  }

  return (
    <ul className="divide-y" aria-label={t('members.title')}>
      {members.data.map((member) => {
        const isMe = member.userId === me.id
        const roleLocked = isMe && onlyAdmin
        return (
          <li key={member.userId} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:gap-3">
            <div className="flex min-w-0 flex-1 items-center gap-3">
              <TeamAvatar email={member.email} />
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-x-1.5 text-sm font-medium">
                  <span className="min-w-0 wrap-anywhere">{member.email}</span>
                  {member.role === 'admin' && (
                    <Crown
                      role="img"
                      aria-label={t('members.adminCrown')}
                      className="size-4 shrink-0 text-warning"
                    />
                  )}
                  {isMe && <Badge variant="outline">{t('members.you')}</Badge>}
                </p>
                <p className="text-xs text-muted-foreground">
                  {member.displayName && <span className="wrap-anywhere">{member.displayName} · </span>}
                  {t('members.joined', { date: formatShortDate(member.joinedAt, currentLanguage()) })}
                </p>
                {roleLocked && (
                  <p id="only-admin-role" className="text-xs text-muted-foreground">
                    {t('members.onlyAdminRole')}
                  </p>
                )}
              </div>
            </div>
            <div className="flex items-center gap-2 pl-12 sm:pl-0">
              {access.manage_team_roles ? (
                <div className="w-32">
                  <Select
                    aria-label={t('members.roleOf', { email: member.email })}
                    value={member.role}
                    disabled={roleLocked}
                    title={roleLocked ? t('members.onlyAdminRole') : undefined}
                    aria-describedby={roleLocked ? 'only-admin-role' : undefined}
                    onChange={(event) => onRoleChange(member, event.target.value as TeamRole)}
                  >
                    {teamRoles.map((value) => (
                      <option key={value} value={value}>
                        {t(`roles.${value}`)}
                      </option>
                    ))}
                  </Select>
                </div>
              ) : (
                <Badge variant={member.role === 'admin' ? 'primary' : 'default'}>
                  {t(`roles.${member.role}`)}
                </Badge>
              )}
              {access.remove_members &&
                (isMe ? (
                  // Keeps the role dropdowns aligned: nobody removes themselves (they leave).
                  <span aria-hidden className="w-8" />
                ) : (
                  <ConfirmAction
                    iconOnly
                    variant="ghost"
                    icon={<UserMinus />}
                    action={remove}
                    variables={member.userId}
                    texts={{
                      action: t('members.remove'),
                      actionLabel: t('members.removeLabel', { email: member.email }),
                      title: t('members.removeTitle'),
                      text: t('members.removeText', { email: member.email }),
                      done: t('members.removed'),
                      failed: t('members.removeFailed'),
                    }}
                  />
                ))}
            </div>
          </li>
        )
      })}
    </ul>
  )
}
