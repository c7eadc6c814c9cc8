import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { accountOperations } from '../../../domain/api/account.ts'
import type { Profile, ProfileUpdateInput } from '../../../domain/profile.ts'
import { setLanguage } from '../../i18n/index.ts'
import { callOperation } from '../../lib/api.ts'
import { operationQuery } from '../../lib/queries.ts'
import { sessionQuery } from '../auth/index.ts'
import { setTheme } from '../shell/index.ts'

const profileQuery = operationQuery(accountOperations.profile, {})

export function useProfile() {
  return useQuery(profileQuery)
}

/** Makes the profile's language and theme this browser's, at once. */
export function applyProfilePreferences(profile: Pick<Profile, 'locale' | 'theme'>) {
  setTheme(profile.theme)
  void setLanguage(profile.locale)
}

/**
 * Saves only the changed fields, optimistically: the cache (and the language and theme) change at
 * once and are put back if the server refuses.
 */
export function useUpdateProfile() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: ProfileUpdateInput) => callOperation(accountOperations.updateProfile, { body }),
    onMutate: async (changes) => {
      await queryClient.cancelQueries({ queryKey: profileQuery.queryKey })
      const previous = queryClient.getQueryData(profileQuery.queryKey)
      if (previous) {
        const next: Profile = {
          ...previous,
          ...changes,
          displayName:
            changes.displayName === undefined ? previous.displayName : changes.displayName?.trim() || null,
        } as Profile
        queryClient.setQueryData(profileQuery.queryKey, next)
        applyProfilePreferences(next)
      }
      return { previous }
    },
    onError: (_error, _changes, context) => {
      if (!context?.previous) return
      queryClient.setQueryData(profileQuery.queryKey, context.previous)
      applyProfilePreferences(context.previous)
    },
    onSuccess: (profile, changes) => {
      queryClient.setQueryData(profileQuery.queryKey, profile)
      // The display name is the session user's name (dashboard welcome, avatar menu).
      if (changes.displayName !== undefined)
        void queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey })
    },
  })
}
