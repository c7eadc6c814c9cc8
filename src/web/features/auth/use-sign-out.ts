import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import { useSignOut } from './session.ts'

/**
 * Signs out, then goes to `to` (the sign-in page; null: stays where it is). When the server could
 * not end the session the user stays signed in and is told so, instead of looking signed out while
 * the session still works.
 */
export function useSignOutAndLeave(to: string | null = '/login') {
  const { t } = useTranslation('shell')
  const mutation = useSignOut()
  const navigate = useNavigate()
  const signOut = () =>
    mutation.mutate(undefined, {
      onSuccess: () => {
        if (to) navigate(to, { replace: true })
      },
      onError: (error) =>
        toast({ title: t('signOutFailed'), description: errorText(error, ''), tone: 'error' }),
    })
  return { signOut, isPending: mutation.isPending }
}
