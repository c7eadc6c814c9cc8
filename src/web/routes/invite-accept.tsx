import { LogIn, LogOut, Mail, UserPlus, Users } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate, useParams } from 'react-router'
import { oauthProviders } from '../../domain/auth.ts'
import type { InvitationPreview } from '../../domain/teams.ts'
import { formatLongDateTime } from '../../domain/time.ts'
import { Alert } from '../components/ui/alert.tsx'
import { Button } from '../components/ui/button.tsx'
import { Spinner } from '../components/ui/skeleton.tsx'
import { toast } from '../components/ui/toast.tsx'
import {
  ProviderSignInButton,
  useAuthProviders,
  useSession,
  useSignOutAndLeave,
} from '../features/auth/index.ts'
import { useAcceptInvitation, useInvitationPreview } from '../features/teams/index.ts'
import { currentLanguage, message } from '../i18n/index.ts'
import { errorText } from '../lib/api.ts'
import { useDocumentTitle } from '../lib/use-document-title.ts'
import { AuthCard } from './auth/auth-layout.tsx'

/**
 * /invite/:token, the link of the invitation mail. Signed-out visitors see the invitation, sign in
 * or sign up, and come back here to accept; a signed-in user accepts with one click.
 */
export function InviteAcceptPage() {
  const { t } = useTranslation('teams')
  useDocumentTitle(t('accept.title'))
  const token = useParams().token ?? ''
  const preview = useInvitationPreview(token)
  const session = useSession()

  if (preview.isPending || session.isPending) {
    return (
      <AuthCard title={t('accept.title')}>
        <Spinner label={t('accept.loading')} />
      </AuthCard>
    )
  }
  if (preview.isError) {
    return (
      <AuthCard title={t('accept.unusable')}>
        <div className="space-y-4">
          <Alert tone="error" title={errorText(preview.error, message('teams.invitationInvalid'))}>
            {t('accept.unusableText')}
          </Alert>
          <Button asChild className="w-full">
            {session.data ? (
              <Link to="/team">{t('accept.goToTeams')}</Link>
            ) : (
              <Link to="/login-password">{t('accept.goToSignIn')}</Link>
            )}
          </Button>
        </div>
      </AuthCard>
    )
  }
  const invitation = preview.data
  const title = invitation.invitedByEmail
    ? t('accept.invited', { inviter: invitation.invitedByEmail, team: invitation.teamName })
    : t('accept.invitedAnonymous', { team: invitation.teamName })
  return (
    <AuthCard title={title}>
      <div className="space-y-5">
        <InvitationFacts invitation={invitation} />
        {session.data ? (
          <SignedInAccept token={token} invitation={invitation} email={session.data.email} />
        ) : (
          <SignedOutChoices token={token} email={invitation.email} />
        )}
      </div>
    </AuthCard>
  )
}

function InvitationFacts({ invitation }: { invitation: InvitationPreview }) {
  const { t } = useTranslation('teams')
  const rows: [string, string][] = [
    [t('accept.role'), t(`roles.${invitation.role}`)],
    [t('accept.email'), invitation.email],
    [t('accept.validUntil'), formatLongDateTime(invitation.expiresAt, currentLanguage())],
  ]
  return (
    <div className="flex gap-4 rounded-lg border bg-muted/40 p-4">
      <Users aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
      <dl className="min-w-0 flex-1 space-y-1.5 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex flex-wrap justify-between gap-x-3">
            <dt className="text-muted-foreground">{label}</dt>
            <dd className="min-w-0 font-medium wrap-anywhere">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

/**
 * Every way in: password, emailed code, a configured provider, or a new account. Each page gets
 * the invitation as `next` and the invited address to fill in, and passes both on to the others
 * (and the code mail's link), so every path ends back here.
 */
function SignedOutChoices({ token, email }: { token: string; email: string }) {
  const { t } = useTranslation('teams')
  const providers = useAuthProviders()
  const back = `/invite/${token}`
  const search = `?${new URLSearchParams({ next: back, email })}`
  const state = { from: back }
  const configured = oauthProviders.filter((provider) => providers.data?.[provider])
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">{t('accept.signedOutHint', { email })}</p>
      <Button asChild className="w-full">
        <Link to={{ pathname: '/login-password', search }} state={state}>
          <LogIn />
          {t('accept.signInPassword')}
        </Link>
      </Button>
      <Button asChild variant="outline" className="w-full">
        <Link to={{ pathname: '/login', search }} state={state}>
          <Mail />
          {t('accept.signInCode')}
        </Link>
      </Button>
      {configured.map((provider) => (
        <ProviderSignInButton key={provider} provider={provider} returnTo={back} />
      ))}
      <Button asChild variant="outline" className="w-full">
        <Link to={{ pathname: '/signup-password', search }} state={state}>
          <UserPlus />
          {t('accept.signUp')}
        </Link>
      </Button>
    </div>
  )
}

function SignedInAccept({
  token,
  invitation,
  email,
}: {
  token: string
  invitation: InvitationPreview
  email: string
}) {
  const { t } = useTranslation('teams')
  const navigate = useNavigate()
  const accept = useAcceptInvitation(token)
  // Stays on the invitation, which then offers to sign in with the invited address.
  const signOut = useSignOutAndLeave(null)
  const wrongAccount = email !== invitation.email

  const onAccept = () =>
    accept.mutate(undefined, {
      onSuccess: (accepted) => {
        toast({ title: t('accept.joined', { team: accepted.teamName }), tone: 'success' })
        navigate(`/team/${accepted.teamId}/manage`, { replace: true })
      },
    })

  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">{t('accept.signedInAs', { email })}</p>
      {wrongAccount && (
        <Alert tone="error" title={message('teams.invitationWrongEmail')}>
          {t('accept.signedOutHint', { email: invitation.email })}
        </Alert>
      )}
      {accept.isError && (
        <Alert tone="error" title={errorText(accept.error, message('error.unexpected'))}>
          <Link to="/team" className="font-medium text-primary hover:underline">
            {t('accept.goToTeams')}
          </Link>
        </Alert>
      )}
      {!wrongAccount && (
        <Button className="w-full" onClick={onAccept} disabled={accept.isPending || accept.isSuccess}>
          {accept.isPending ? t('accept.accepting') : t('accept.accept')}
        </Button>
      )}
      {/* Signed out, this page offers signing in or up with the invited address, and comes back. */}
      <Button variant="outline" className="w-full" disabled={signOut.isPending} onClick={signOut.signOut}>
        <LogOut />
        {t('accept.switchAccount')}
      </Button>
    </div>
  )
}
