import { useTranslation } from 'react-i18next'
import { normalizeTags } from '../../../domain/fields.ts'
import {
  type MarkdownLabels,
  type MarkdownPrompt,
  promptToMarkdown,
} from '../../../domain/prompt-markdown.ts'

/** The Markdown export with its labels in the user's language. */
export function useMarkdownExport(): (prompt: MarkdownPrompt) => string {
  const { t } = useTranslation('prompts')
  const labels: MarkdownLabels = {
    tags: t('markdown.tags'),
    visibility: t('markdown.visibility'),
    version: t('markdown.version'),
    changelog: t('markdown.changelog'),
    visibilities: { private: t('visibility.private'), team: t('visibility.team') },
  }
  return (prompt) => promptToMarkdown(prompt, labels)
}

/** The Markdown of what a create or edit form holds right now. */
export function formMarkdown(
  toMarkdown: (prompt: MarkdownPrompt) => string,
  values: Pick<MarkdownPrompt, 'title' | 'description' | 'tags' | 'visibility' | 'body'>,
  version?: { versionNumber: number; changelog: string | null },
): string {
  return toMarkdown({
    title: values.title,
    description: values.description,
    tags: normalizeTags(values.tags),
    visibility: values.visibility,
    body: values.body,
    ...version,
  })
}
