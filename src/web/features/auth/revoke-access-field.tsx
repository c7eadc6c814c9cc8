import { useTranslation } from 'react-i18next'
import { Checkbox } from '../../components/ui/checkbox.tsx'

// Apart from the other form pieces (auth-form.tsx): only the password-reset forms show it, and the
// checkbox (Radix) would otherwise be downloaded with every sign-in page that uses an email field.

/**
 * With a new password: also revoke the account's API keys and disable its webhooks (the form's
 * `revokeAccess`), which a session someone took could have left behind.
 */
export function RevokeAccessField({
  form,
}: {
  form: { values: { revokeAccess?: boolean }; change: (name: 'revokeAccess', value: boolean) => void }
}) {
  const { t } = useTranslation('auth')
  return (
    <div className="space-y-1">
      <div className="flex items-start gap-2.5">
        <Checkbox
          id="revoke-access"
          checked={form.values.revokeAccess === true}
          onCheckedChange={(checked) => form.change('revokeAccess', checked === true)}
          aria-describedby="revoke-access-hint"
          className="mt-0.5"
        />
        <label htmlFor="revoke-access" className="text-sm leading-snug">
          {t('revokeAccess.label')}
        </label>
      </div>
      <p id="revoke-access-hint" className="pl-6.5 text-xs text-muted-foreground">
        {t('revokeAccess.hint')}
      </p>
    </div>
  )
}
