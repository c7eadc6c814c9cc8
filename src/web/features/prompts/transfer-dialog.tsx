import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ArrowDownUp, Download, FileUp } from 'lucide-react'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { promptOperations } from '../../../domain/api/prompts.ts'
import {
  type ExportedPrompt,
  type ImportResult,
  markdownPathOf,
  promptToMarkdownFile,
} from '../../../domain/prompt-transfer.ts'
import { DataTable } from '../../components/data-table.tsx'
import { SpaceSelect } from '../../components/space-select.tsx'
import { Alert } from '../../components/ui/alert.tsx'
import { Button } from '../../components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../components/ui/tabs.tsx'
import { toast } from '../../components/ui/toast.tsx'
import { callOperation, errorText } from '../../lib/api.ts'
import { type CallProgress, callOperationWithProgress } from '../../lib/api-streams.ts'
import { invalidateOperations } from '../../lib/queries.ts'
import { useMyTeams } from '../teams/index.ts'

function save(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.click()
  URL.revokeObjectURL(url)
}

const today = () => new Date().toISOString().slice(0, 10)

/** The import document of the chosen files: a JSON export, or Markdown files (loose or in a zip). */
async function documentOf(files: readonly File[]): Promise<unknown> {
  const markdown: { path: string; content: string }[] = []
  for (const file of files) {
    if (file.name.endsWith('.json')) return JSON.parse(await file.text())
    if (file.name.endsWith('.md')) markdown.push({ path: file.name, content: await file.text() })
    if (file.name.endsWith('.zip')) {
      const { strFromU8, unzipSync } = await import('fflate')
      const entries = unzipSync(new Uint8Array(await file.arrayBuffer()))
      const json = Object.keys(entries).find((path) => path.endsWith('.json'))
      if (json) return JSON.parse(strFromU8(entries[json]!))
      for (const [path, data] of Object.entries(entries)) {
        if (path.endsWith('.md')) markdown.push({ path, content: strFromU8(data) })
      }
    }
  }
  return { files: markdown }
}

function ExportPanel({ teamId }: { teamId: string | null }) {
  const { t } = useTranslation('prompts')
  const download = useMutation({
    mutationFn: async (format: 'json' | 'markdown') => {
      const document = await callOperation(promptOperations.exportPrompts, {
        query: teamId ? { teamId } : {},
      })
      if (format === 'json') {
        save(
          new Blob([JSON.stringify(document, null, 2)], { type: 'application/json' }),
          `promptfolio-prompts-${today()}.json`,
        )
      } else {
        const { strToU8, zipSync } = await import('fflate')
        const taken = new Set<string>()
        const files: Record<string, Uint8Array> = {}
        for (const prompt of document.prompts as ExportedPrompt[]) {
          files[markdownPathOf(prompt.name, taken)] = strToU8(promptToMarkdownFile(prompt))
        }
        save(new Blob([zipSync(files)], { type: 'application/zip' }), `promptfolio-prompts-${today()}.zip`)
      }
      return document.prompts.length
    },
    onSuccess: (count) => toast({ title: t('transfer.exported', { count }), tone: 'success' }),
    onError: (error) => toast({ title: errorText(error, t('transfer.exportFailed')), tone: 'error' }),
  })
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">{t('transfer.exportText')}</p>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => download.mutate('json')} disabled={download.isPending}>
          <Download aria-hidden />
          {t('transfer.downloadJson')}
        </Button>
        <Button variant="outline" onClick={() => download.mutate('markdown')} disabled={download.isPending}>
          <Download aria-hidden />
          {t('transfer.downloadMarkdown')}
        </Button>
      </div>
    </div>
  )
}

/**
 * The import's progress: the file's bytes sent, then the prompts the server has done (its NDJSON
 * lines), then its last step (the references check and the commit); indeterminate before any.
 */
function ImportProgress({ progress, checking }: { progress: CallProgress | null; checking: boolean }) {
  const { t } = useTranslation('prompts')
  const text = !progress
    ? checking
      ? t('transfer.previewing')
      : t('transfer.importing')
    : progress.phase === 'upload'
      ? t('transfer.uploading', { percent: Math.floor((progress.done / Math.max(1, progress.total)) * 100) })
      : progress.done >= progress.total
        ? t('transfer.finishing')
        : t(checking ? 'transfer.checkingCount' : 'transfer.importingCount', {
            done: progress.done,
            total: progress.total,
          })
  return (
    <div role="status" className="space-y-1">
      <p className="text-sm">{text}</p>
      <progress
        className="h-2 w-full accent-[var(--primary)]"
        aria-label={t('transfer.progress')}
        {...(progress && { value: progress.done, max: Math.max(1, progress.total) })}
      />
    </div>
  )
}

function ImportPanel({ teamId, onDone }: { teamId: string | null; onDone: () => void }) {
  const { t } = useTranslation('prompts')
  const fileId = useId()
  const queryClient = useQueryClient()
  const [document, setDocument] = useState<unknown>(null)
  const [preview, setPreview] = useState<ImportResult | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [progress, setProgress] = useState<CallProgress | null>(null)
  const run = useMutation({
    mutationFn: (input: { document: unknown; dryRun: boolean }) => {
      setProgress(null)
      return callOperationWithProgress(
        promptOperations.importPrompts,
        { body: { ...input, teamId } },
        setProgress,
      )
    },
  })

  const onFiles = async (files: FileList | null) => {
    setPreview(null)
    setProblem(null)
    setDocument(null)
    if (!files || files.length === 0) return
    let read: unknown
    try {
      read = await documentOf([...files])
    } catch {
      setProblem(t('transfer.unreadable'))
      return
    }
    setDocument(read)
    run.mutate(
      { document: read, dryRun: true },
      {
        onSuccess: setPreview,
        onError: (error) => setProblem(errorText(error, t('transfer.importFailed'))),
      },
    )
  }
  const onImport = () =>
    run.mutate(
      { document, dryRun: false },
      {
        onSuccess: (result) => {
          invalidateOperations(queryClient, promptOperations)
          toast({
            title: t('transfer.imported', { created: result.created, versioned: result.versioned }),
            tone: 'success',
          })
          onDone()
        },
        onError: (error) => setProblem(errorText(error, t('transfer.importFailed'))),
      },
    )

  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground">{t('transfer.importText')}</p>
      <div className="space-y-1.5">
        <label htmlFor={fileId} className="text-sm font-medium">
          {t('transfer.file')}
        </label>
        <input
          id={fileId}
          type="file"
          multiple
          accept=".json,.zip,.md,application/json,application/zip,text/markdown"
          className="block w-full text-sm file:mr-3 file:rounded-md file:border file:bg-background file:px-3 file:py-1.5 file:text-sm"
          onChange={(event) => void onFiles(event.target.files)}
        />
      </div>
      {run.isPending && <ImportProgress progress={progress} checking={!preview} />}
      {problem && <Alert tone="error">{problem}</Alert>}
      {preview && !run.isPending && (
        <div className="space-y-2">
          <p className="text-sm font-medium" role="status">
            {t('transfer.previewSummary', {
              created: preview.created,
              versioned: preview.versioned,
              unchanged: preview.unchanged,
              conflicts: preview.conflicts,
            })}
          </p>
          <DataTable
            caption={t('transfer.previewTable')}
            frameClassName="max-h-56 overflow-y-auto"
            rows={preview.items}
            rowKey={(item) => item.name}
            columns={[
              {
                header: t('transfer.name'),
                rowHeader: true,
                className: 'font-mono text-xs break-all',
                cell: (item) => item.name,
              },
              {
                header: t('transfer.action'),
                cell: (item) => (
                  <span className={item.action === 'conflict' ? 'text-destructive' : undefined}>
                    {t(`transfer.actions.${item.action}`)}
                    {item.problem &&
                      ` (${t(`transfer.problems.${item.problem}`, { defaultValue: item.problem })})`}
                    {item.detail && <span className="block text-xs">{item.detail}</span>}
                  </span>
                ),
              },
              { header: t('transfer.newVersions'), numeric: true, cell: (item) => item.newVersions },
            ]}
          />
        </div>
      )}
      <DialogFooter>
        <Button
          onClick={onImport}
          disabled={
            !preview || preview.conflicts > 0 || run.isPending || preview.created + preview.versioned === 0
          }
        >
          <FileUp aria-hidden />
          {t('transfer.import')}
        </Button>
      </DialogFooter>
    </div>
  )
}

/** 'Import / Export' on the prompts list: a space's prompts out as JSON or Markdown, and files in. */
export function PromptTransferButton() {
  const { t } = useTranslation('prompts')
  const teams = useMyTeams()
  const [open, setOpen] = useState(false)
  const [teamId, setTeamId] = useState<string | null>(null)
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <ArrowDownUp aria-hidden />
        {t('transfer.open')}
      </Button>
      <DialogContent title={t('transfer.title')} description={t('transfer.description')} className="max-w-xl">
        {(teams.data?.length ?? 0) > 0 && (
          <SpaceSelect
            label={t('transfer.space')}
            personalLabel={t('transfer.personal')}
            teamLabel={(name) => t('transfer.team', { name })}
            teams={teams.data ?? []}
            value={teamId}
            onChange={setTeamId}
          />
        )}
        <Tabs defaultValue="export">
          <TabsList>
            <TabsTrigger value="export">{t('transfer.export')}</TabsTrigger>
            <TabsTrigger value="import">{t('transfer.importTab')}</TabsTrigger>
          </TabsList>
          <TabsContent value="export" className="mt-4">
            <ExportPanel teamId={teamId} />
          </TabsContent>
          <TabsContent value="import" className="mt-4">
            <ImportPanel key={teamId ?? 'personal'} teamId={teamId} onDone={() => setOpen(false)} />
          </TabsContent>
        </Tabs>
      </DialogContent>
    </Dialog>
  )
}
