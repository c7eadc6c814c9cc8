import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Trash2 } from 'lucide-react'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { dataRightsOperations } from '../../../domain/api/data-rights.ts'
import { teamOperations } from '../../../domain/api/teams.ts'
import { Button } from '../../components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx'
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input } from '../../components/ui/input.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { callOperation, errorText } from '../../lib/api.ts'
import { invalidateOperations } from '../../lib/queries.ts'

/** A team's danger zone (its admins): delete it, confirmed by typing its name. */
export function DeleteTeamCard({ team }: { team: { id: string; name: string } }) {
  const { t } = useTranslation('account')
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [typed, setTyped] = useState('')
  const [problem, setProblem] = useState<string | null>(null)
  const remove = useMutation({
    mutationFn: () =>
      callOperation(dataRightsOperations.deleteTeam, {
        params: { teamId: team.id },
        body: { confirmName: typed },
      }),
    // Here, not in mutate's callbacks: leaving the page unmounts this card before those would run.
    onSuccess: () => {
      toast({ title: t('team.deleted', { name: team.name }), tone: 'success' })
      navigate('/team', { replace: true })
      invalidateOperations(queryClient, teamOperations.list)
    },
  })
  const onConfirm = () =>
    remove.mutate(undefined, { onError: (error) => setProblem(errorText(error, t('team.failed'))) })

  return (
    <Card role="region" aria-label={t('team.title')} className="border-destructive/40">
      <CardHeader>
        <CardTitle className="text-destructive">{t('team.title')}</CardTitle>
        <CardDescription>{t('team.text')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button variant="destructive" onClick={() => setOpen(true)}>
          <Trash2 aria-hidden />
          {t('team.open')}
        </Button>
      </CardContent>
      <Dialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next)
          setTyped('')
          setProblem(null)
        }}
      >
        <DialogContent
          title={t('team.confirmTitle', { name: team.name })}
          description={t('team.confirmText')}
        >
          <form
            className="space-y-4"
            onSubmit={(event) => {
              event.preventDefault()
              onConfirm()
            }}
          >
            <Field label={t('team.typeName', { name: team.name })} error={problem ?? undefined}>
              <Input value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
            </Field>
            <DialogFooter>
              <Button variant="outline" onClick={() => setOpen(false)} disabled={remove.isPending}>
                {t('delete.cancel')}
              </Button>
              <Button
                type="submit"
                variant="destructive"
                disabled={typed.trim() !== team.name || remove.isPending}
              >
                {remove.isPending ? t('team.deleting') : t('team.confirm')}
              </Button>
            </DialogFooter>
          </form>
        </DialogContent>
      </Dialog>
    </Card>
  )
}
