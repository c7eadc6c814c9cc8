import { zodResolver } from '@hookform/resolvers/zod'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { type CreatedApiKey, createApiKeyInput } from '../../../domain/api-keys.ts'
import { CopyValue } from '../../components/copy-value.tsx'
import { Button } from '../../components/ui/button.tsx'
import { CodeBlock } from '../../components/ui/code-block.tsx'
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Field } from '../../components/ui/field.tsx'
import { Input, Select } from '../../components/ui/input.tsx'
import { fieldError, reportSubmitError } from '../../lib/forms.ts'
import { useCreateApiKey } from './queries.ts'
import { envSnippet, mcpSnippet } from './snippets.ts'

/** 'Create key': name and scope, then the new key's secret, shown this once with how to use it. */
export function CreateKeyDialog({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('publicApi')
  const [open, setOpen] = useState(false)
  const [created, setCreated] = useState<CreatedApiKey | null>(null)
  const create = useCreateApiKey()
  const form = useForm({
    resolver: zodResolver(createApiKeyInput),
    defaultValues: { name: '', scope: 'read' as const },
  })
  const onOpenChange = (next: boolean) => {
    setOpen(next)
    if (!next) {
      setCreated(null)
      form.reset()
    }
  }
  const onSubmit = form.handleSubmit((values) =>
    create
      .mutateAsync({ ...values, teamId })
      .then(setCreated, (error: unknown) => reportSubmitError(form.setError, error, t('createFailed'))),
  )
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <Button onClick={() => setOpen(true)}>
        <Plus aria-hidden />
        {t('create')}
      </Button>
      <DialogContent title={t('createTitle')} description={t('createDescription')}>
        {created ? (
          <div className="space-y-4">
            <p role="status" className="text-sm font-medium">
              {t('secretOnce')}
            </p>
            <CopyValue label={t('publicKey')} value={created.publicKey} />
            <CopyValue label={t('secretKey')} value={created.secretKey} />
            <CodeBlock label={t('usage')} className="text-xs">
              {envSnippet(window.location.origin, created.publicKey, created.secretKey)}
            </CodeBlock>
            <p className="text-sm font-medium">{t('mcpCreated')}</p>
            <CodeBlock label={t('mcpCreated')} className="text-xs">
              {mcpSnippet(window.location.origin, created.secretKey)}
            </CodeBlock>
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>{t('done')}</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            <Field label={t('name')} error={fieldError(form.formState.errors, 'name')}>
              <Input placeholder={t('namePlaceholder')} autoComplete="off" {...form.register('name')} />
            </Field>
            <Field label={t('scope')} error={fieldError(form.formState.errors, 'scope')}>
              <Select {...form.register('scope')}>
                <option value="read">{t('scopeRead')}</option>
                <option value="read_write">{t('scopeReadWrite')}</option>
              </Select>
            </Field>
            <DialogFooter>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? t('creating') : t('create')}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  )
}
