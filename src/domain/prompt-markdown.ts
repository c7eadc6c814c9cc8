import type { PromptVisibility } from './prompts.ts'

/** What a Markdown export shows: a prompt at one version (or a draft that has none yet). */
export interface MarkdownPrompt {
  title: string
  description?: string | null
  tags: readonly string[]
  visibility: PromptVisibility
  versionNumber?: number | null
  changelog?: string | null
  body: string
}

/** The export's words; the web app passes them in the user's language. */
export interface MarkdownLabels {
  tags: string
  visibility: string
  version: string
  changelog: string
  visibilities: Record<PromptVisibility, string>
}

export const englishMarkdownLabels: MarkdownLabels = {
  tags: 'Tags',
  visibility: 'Visibility',
  version: 'Version',
  changelog: 'Changelog',
  visibilities: { private: 'Private', team: 'Team' },
}

/** A fence longer than any run of backticks in the body, so the body cannot close it early. */
function fenceFor(body: string): string {
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((match) => match[0].length))
  return '`'.repeat(Math.max(3, longest + 1))
}

/**
 * The Markdown export, in the spec's order: title heading, description, tags, visibility, version
 * number, changelog, then the body in a code block. Parts without a value are left out.
 */
export function promptToMarkdown(
  prompt: MarkdownPrompt,
  labels: MarkdownLabels = englishMarkdownLabels,
): string {
  const description = prompt.description?.trim()
  const changelog = prompt.changelog?.trim()
  const facts = [
    prompt.tags.length > 0 ? `- **${labels.tags}:** ${prompt.tags.join(', ')}` : null,
    `- **${labels.visibility}:** ${labels.visibilities[prompt.visibility]}`,
    prompt.versionNumber ? `- **${labels.version}:** ${prompt.versionNumber}` : null,
    changelog ? `- **${labels.changelog}:** ${changelog}` : null,
  ].filter((line) => line !== null)
  const fence = fenceFor(prompt.body)
  const blocks = [
    `# ${prompt.title.trim()}`,
    description || null,
    facts.join('\n'),
    `${fence}\n${prompt.body.trim()}\n${fence}`,
  ].filter((block) => block !== null)
  return `${blocks.join('\n\n')}\n`
}
