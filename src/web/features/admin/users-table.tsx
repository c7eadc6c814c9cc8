import { Crown, ShieldMinus, ShieldPlus, Users } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { AdminUser } from '../../../domain/admin.ts'
import type { ChoosablePlanId } from '../../../domain/plans.ts'
import { DataTable } from '../../components/data-table.tsx'
import { SearchInput } from '../../components/search-input.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Badge } from '../../components/ui/badge.tsx'
import { Button } from '../../components/ui/button.tsx'
import { ConfirmDialog } from '../../components/ui/dialog.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import { formatDate } from '../../lib/format.ts'
import { PlanSelect } from './plan-select.tsx'
import { useAdminUsers, useSetGlobalRole, useSetUserPlan } from './queries.ts'

const SEARCH_MAX = 254

/** What the role dialog is about to do. */
type RoleChange = { user: AdminUser; role: AdminUser['globalRole']; self: boolean }

/** Grant or revoke the global role; what it does is confirmed in the dialog first. */
function RoleButton({
  user,
  self,
  onClick,
}: {
  user: AdminUser
  self: boolean
  onClick: (change: RoleChange) => void
}) {
  const { t } = useTranslation('admin')
  const isAdmin = user.globalRole === 'global_admin'
  return (
    <Button
      size="sm"
      variant={isAdmin ? 'outline' : 'primary'}
      aria-label={
        isAdmin ? t('users.revokeFor', { email: user.email }) : t('users.grantFor', { email: user.email })
      }
      onClick={() => onClick({ user, role: isAdmin ? 'user' : 'global_admin', self })}
    >
      {isAdmin ? <ShieldMinus /> : <ShieldPlus />}
      {isAdmin ? t('users.revoke') : t('users.grant')}
    </Button>
  )
}

/**
 * User Management: every account with its global role, teams, plan and join date; search over the
 * email; grant or revoke the global role (always confirmed; demoting yourself says so loudly);
 * change the plan of the user's personal space.
 */
export function UsersTable({ currentUserId }: { currentUserId: string }) {
  const { t } = useTranslation('admin')
  const [search, setSearch] = useState('')
  const users = useAdminUsers(search)
  const setRole = useSetGlobalRole()
  const setPlan = useSetUserPlan()
  const [change, setChange] = useState<RoleChange | null>(null)
  const counts = users.data?.pages[0]?.counts
  const items = users.data?.pages.flatMap((page) => page.items) ?? []

  const confirmRole = () => {
    if (!change) return
    setRole.mutate(
      { userId: change.user.id, role: change.role, confirmSelf: change.self },
      {
        onSuccess: (user) => {
          toast({
            title:
              user.globalRole === 'global_admin'
                ? t('users.granted', { email: user.email })
                : t('users.revoked', { email: user.email }),
            tone: 'success',
          })
          setChange(null)
        },
        onError: (error) => {
          toast({ title: t('users.roleFailed'), description: errorText(error, ''), tone: 'error' })
          setChange(null)
        },
      },
    )
  }

  const changePlan = (user: AdminUser, plan: ChoosablePlanId | null) => {
    setPlan.mutate(
      { userId: user.id, plan },
      {
        onSuccess: () => toast({ title: t('users.planUpdated', { email: user.email }), tone: 'success' }),
        onError: (error) =>
          toast({ title: t('users.planFailed'), description: errorText(error, ''), tone: 'error' }),
      },
    )
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <SearchInput
          value={search}
          onSearch={setSearch}
          label={t('users.search')}
          placeholder={t('users.searchPlaceholder')}
          maxLength={SEARCH_MAX}
          className="sm:max-w-sm"
        />
        <p className="text-sm text-muted-foreground" aria-live="polite">
          {counts
            ? `${t('users.userCount', { count: counts.users })} · ${t('users.adminCount', { count: counts.globalAdmins })}`
            : ' '}
        </p>
      </div>
      {users.isPending ? (
        <LoadingSkeletons label={t('users.loading')} className="space-y-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-12" />
          ))}
        </LoadingSkeletons>
      ) : users.isError ? (
        <RetryAlert title={t('users.loadFailed')} onRetry={() => void users.refetch()}>
          {errorText(users.error, '')}
        </RetryAlert>
      ) : items.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-lg border py-12 text-center">
          <Users aria-hidden className="size-7 text-muted-foreground" />
          <p className="font-medium">{search ? t('users.emptySearch', { search }) : t('users.empty')}</p>
        </div>
      ) : (
        <DataTable
          caption={t('users.caption')}
          className="min-w-[52rem]"
          frameClassName="rounded-lg"
          rows={items}
          rowKey={(user) => user.id}
          rowProps={() => ({ 'data-testid': 'admin-user-row' })}
          columns={[
            {
              header: t('users.columns.user'),
              rowHeader: true,
              cell: (user) => (
                <>
                  <div className="flex flex-wrap items-center gap-1.5">
                    <span className="font-medium break-all">{user.email}</span>
                    {user.isFirstUser && <Badge variant="outline">{t('users.firstUser')}</Badge>}
                    {user.id === currentUserId && <Badge variant="primary">{t('users.you')}</Badge>}
                  </div>
                  {user.name && <p className="text-xs text-muted-foreground">{user.name}</p>}
                </>
              ),
            },
            {
              header: t('users.columns.role'),
              cell: (user) =>
                user.globalRole === 'global_admin' ? (
                  <Badge variant="primary">
                    <Crown aria-hidden />
                    {t('roles.global_admin')}
                  </Badge>
                ) : (
                  <Badge>{t('roles.user')}</Badge>
                ),
            },
            {
              header: t('users.columns.teams'),
              cell: (user) =>
                user.teams.length === 0 ? (
                  <span className="whitespace-nowrap text-muted-foreground">{t('users.noTeams')}</span>
                ) : (
                  <span title={user.teams.map((team) => team.name).join(', ')}>
                    {t('users.teamCount', { count: user.teams.length })}
                    <span className="block max-w-48 truncate text-xs text-muted-foreground">
                      {user.teams.map((team) => team.name).join(', ')}
                    </span>
                  </span>
                ),
            },
            {
              header: t('users.columns.plan'),
              cell: (user) => (
                <PlanSelect
                  context="personal"
                  plan={user.plan}
                  label={t('users.planFor', { email: user.email })}
                  disabled={setPlan.isPending}
                  onChange={(plan) => changePlan(user, plan)}
                />
              ),
            },
            {
              header: t('users.columns.joined'),
              className: 'whitespace-nowrap',
              cell: (user) => formatDate(user.createdAt),
            },
            {
              header: t('users.columns.actions'),
              alignEnd: true,
              className: 'whitespace-nowrap',
              cell: (user) => <RoleButton user={user} self={user.id === currentUserId} onClick={setChange} />,
            },
          ]}
        />
      )}
      {users.hasNextPage && (
        <Button
          variant="outline"
          size="sm"
          disabled={users.isFetchingNextPage}
          onClick={() => void users.fetchNextPage()}
        >
          {users.isFetchingNextPage ? t('users.loadingMore') : t('users.loadMore')}
        </Button>
      )}
      <ConfirmDialog
        open={change !== null}
        onOpenChange={(open) => !open && setChange(null)}
        title={
          change?.self
            ? t('users.confirmSelfTitle')
            : change?.role === 'global_admin'
              ? t('users.confirmGrantTitle')
              : t('users.confirmRevokeTitle')
        }
        description={
          change?.self
            ? t('users.confirmSelfText')
            : change?.role === 'global_admin'
              ? t('users.confirmGrantText', { email: change.user.email })
              : t('users.confirmRevokeText', { email: change?.user.email ?? '' })
        }
        confirmLabel={
          change?.self
            ? t('users.confirmSelf')
            : change?.role === 'global_admin'
              ? t('users.grant')
              : t('users.revoke')
        }
        destructive={change?.role !== 'global_admin'}
        pending={setRole.isPending}
        onConfirm={confirmRole}
      />
    </div>
  )
}
