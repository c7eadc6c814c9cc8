import { zodResolver } from '@hookform/resolvers/zod'
import { LogOut } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { locales } from '../../../domain/messages/locales.ts'
import {
  changedProfileFields,
  type Profile,
  type ProfileForm,
  profileFormSchema,
  themes,
  timezones,
} from '../../../domain/profile.ts'
import { PageHeader } from '../../components/page-header.tsx'
import { RetryAlert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { LoadingSkeletons, Skeleton } from '../../components/ui/skeleton.tsx'
import { Switch } from '../../components/ui/switch.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { useSignOutOtherSessions } from '../../features/auth/index.ts'
import { useProfile, useUpdateProfile } from '../../features/profile/index.ts'
import { setTheme } from '../../features/shell/index.ts'
import { errorText } from '../../lib/api.ts'
import { fieldError } from '../../lib/forms.ts'
import { useDocumentTitle } from '../../lib/use-document-title.ts'

function toForm(profile: Profile): ProfileForm {
  return {
    displayName: profile.displayName ?? '',
    locale: profile.locale,
    timezone: profile.timezone,
    theme: profile.theme,
    notifications: profile.notifications,
  }
}

/** The form's values as profile settings (an empty display name means none). */
function fromForm(values: z.input<typeof profileFormSchema>): Omit<Profile, 'email' | 'updatedAt'> {
  return { ...values, displayName: values.displayName.trim() || null }
}

const channels = [
  ['mentions', 'in_app'],
  ['mentions', 'email'],
  ['invites', 'in_app'],
  ['invites', 'email'],
] as const

/** Profile settings: only changed fields are saved, optimistically, reverted on failure. */
export function ProfileSettingsPage() {
  const { t } = useTranslation('account')
  useDocumentTitle(t('profile.title'))
  const profile = useProfile()

  return (
    <>
      <PageHeader title={t('profile.title')} description={t('profile.description')} />
      {profile.isPending ? (
        <LoadingSkeletons label={t('profile.loading')} className="space-y-4">
          <Skeleton className="h-40" />
          <Skeleton className="h-56" />
        </LoadingSkeletons>
      ) : profile.isError ? (
        <RetryAlert title={t('profile.failedToLoad')} onRetry={() => void profile.refetch()}>
          {errorText(profile.error, t('profile.failedToLoad'))}
        </RetryAlert>
      ) : (
        <div className="space-y-6">
          <ProfileFormView profile={profile.data} />
        </div>
      )}
    </>
  )
}

function ProfileFormView({ profile }: { profile: Profile }) {
  const { t } = useTranslation('account')
  const common = useTranslation('common').t
  const updateProfile = useUpdateProfile()
  const signOutOthers = useSignOutOtherSessions()
  const form = useForm<z.input<typeof profileFormSchema>, unknown, ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: toForm(profile),
  })
  const values = form.watch()
  const dirty = Object.keys(changedProfileFields(fromForm(toForm(profile)), fromForm(values))).length > 0

  // The theme shows at once while choosing; Cancel (or leaving) puts the saved one back.
  const savedTheme = useRef(profile.theme)
  savedTheme.current = profile.theme
  useEffect(() => {
    setTheme(values.theme)
  }, [values.theme])
  useEffect(() => () => setTheme(savedTheme.current), [])

  const onCancel = () => form.reset(toForm(profile))

  const onSubmit = form.handleSubmit(async (next) => {
    const sent = changedProfileFields(fromForm(toForm(profile)), fromForm(next))
    try {
      const saved = await updateProfile.mutateAsync(sent)
      form.reset(toForm(saved))
      toast({ title: t('profile.saved'), tone: 'success' })
    } catch (error) {
      form.reset(toForm(profile))
      toast({ title: t('profile.failedToSave'), description: errorText(error, ''), tone: 'error' })
    }
  })

  const onSignOutOthers = () =>
    signOutOthers.mutate(undefined, {
      onSuccess: () => toast({ title: t('profile.signedOutOthers'), tone: 'success' }),
      onError: (error) =>
        toast({ title: t('profile.signOutOthersFailed'), description: errorText(error, ''), tone: 'error' }),
    })

  const { errors, isSubmitting } = form.formState
  return (
    <form noValidate onSubmit={onSubmit} className="space-y-6">
      <Card>
        <CardHeader>
          <CardTitle>{t('profile.account')}</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <Field label={t('profile.email')} hint={t('profile.emailHint')}>
            {/* Read-only, not disabled: the address stays readable at full contrast and selectable. */}
            <Input value={profile.email} readOnly type="email" className="bg-muted" />
          </Field>
          <Field
            label={t('profile.displayName')}
            hint={t('profile.displayNameHint')}
            error={fieldError(errors, 'displayName')}
          >
            <Input autoComplete="nickname" {...form.register('displayName')} />
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('profile.preferences')}</CardTitle>
        </CardHeader>
        <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <Field label={t('profile.locale')} error={fieldError(errors, 'locale')}>
            <Select {...form.register('locale')}>
              {locales.map((locale) => (
                <option key={locale} value={locale}>
                  {common(`languages.${locale}`)}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('profile.timezone')} error={fieldError(errors, 'timezone')}>
            <Select {...form.register('timezone')}>
              {timezones.map((zone) => (
                <option key={zone} value={zone}>
                  {zone}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('profile.theme')} error={fieldError(errors, 'theme')}>
            <Select {...form.register('theme')}>
              {themes.map((theme) => (
                <option key={theme} value={theme}>
                  {t(`profile.themes.${theme}`)}
                </option>
              ))}
            </Select>
          </Field>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>{t('profile.notifications')}</CardTitle>
          <CardDescription>{t('profile.notificationsHint')}</CardDescription>
        </CardHeader>
        <CardContent className="divide-y">
          {channels.map(([kind, channel]) => {
            const id = `notify-${kind}-${channel}`
            return (
              <div key={id} className="flex items-center justify-between gap-4 py-3">
                <label htmlFor={id} className="text-sm">
                  {t(`profile.${kind}`)} · {t(channel === 'in_app' ? 'profile.inApp' : 'profile.byEmail')}
                </label>
                <Controller
                  control={form.control}
                  name={`notifications.${kind}.${channel}`}
                  render={({ field }) => (
                    <Switch
                      id={id}
                      checked={field.value}
                      onCheckedChange={field.onChange}
                      onBlur={field.onBlur}
                    />
                  )}
                />
              </div>
            )
          })}
        </CardContent>
      </Card>

      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="outline" onClick={onCancel} disabled={!dirty || isSubmitting}>
          {t('profile.cancel')}
        </Button>
        <Button type="submit" disabled={!dirty || isSubmitting}>
          {isSubmitting ? t('profile.saving') : t('profile.save')}
        </Button>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>{t('profile.sessions')}</CardTitle>
          <CardDescription>{t('profile.sessionsHint')}</CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={onSignOutOthers} disabled={signOutOthers.isPending}>
            <LogOut />
            {signOutOthers.isPending ? t('profile.signingOutOthers') : t('profile.signOutOthers')}
          </Button>
        </CardContent>
      </Card>
    </form>
  )
}
