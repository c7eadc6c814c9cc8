import { KeyRound, RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { WebhookEndpoint, WebhookSecret } from '../../../domain/webhooks.ts'
import { CopyValue } from '../../components/copy-value.tsx'
import { Button } from '../../components/ui/button.tsx'
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { errorText } from '../../lib/api.ts'
import { formatDateTime } from '../../lib/format.ts'
import { useRevealSecret, useRotateSecret } from './queries.ts'

export function SecretButton({ endpoint }: { endpoint: WebhookEndpoint }) {
  const { t } = useTranslation('webhooks')
  const [shown, setShown] = useState<WebhookSecret | null>(null)
  const [confirmRotate, setConfirmRotate] = useState(false)
  const reveal = useRevealSecret(endpoint.id)
  const rotate = useRotateSecret(endpoint.id)
  const open = () =>
    reveal.mutate(undefined, {
      onSuccess: setShown,
      onError: (error) => toast({ title: errorText(error, t('revealFailed')), tone: 'error' }),
    })
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        onClick={open}
        disabled={reveal.isPending}
        aria-label={`${t('reveal')}: ${endpoint.url}`}
      >
        <KeyRound aria-hidden />
        {t('reveal')}
      </Button>
      <Dialog open={shown !== null} onOpenChange={(next) => !next && setShown(null)}>
        {shown && (
          <DialogContent title={t('revealTitle')} description={t('revealDescription')}>
            <div className="space-y-4">
              <CopyValue label={t('secret')} value={shown.secret} />
              {shown.previousSecret && shown.previousSecretExpiresAt && (
                <CopyValue
                  label={t('previousSecret', {
                    time: formatDateTime(shown.previousSecretExpiresAt),
                  })}
                  value={shown.previousSecret}
                />
              )}
              <DialogFooter>
                <Button variant="outline" onClick={() => setConfirmRotate(true)}>
                  <RefreshCw aria-hidden />
                  {t('rotate')}
                </Button>
                <Button onClick={() => setShown(null)}>{t('done')}</Button>
              </DialogFooter>
            </div>
          </DialogContent>
        )}
      </Dialog>
      <ConfirmDialog
        open={confirmRotate}
        onOpenChange={setConfirmRotate}
        title={t('rotateTitle')}
        description={t('rotateText')}
        confirmLabel={t('rotate')}
        destructive={false}
        pending={rotate.isPending}
        onConfirm={() =>
          rotate.mutate(undefined, {
            onSuccess: (secret) => {
              setConfirmRotate(false)
              setShown(secret)
              toast({ title: t('rotated'), tone: 'success' })
            },
            onError: (error) => toast({ title: errorText(error, t('rotateFailed')), tone: 'error' }),
          })
        }
      />
    </>
  )
}
