/**
 * The prompt API's shapes (§3 Prompt, Prompt version). The prompts module owns the rules; other
 * modules (conversations' prompt picker) read prompts through these shapes.
 */
export const promptVisibilities = ['private', 'team'] as const
export type PromptVisibility = (typeof promptVisibilities)[number]

export interface PromptSummary {
  id: string
  ownerUserId: string
  /** The owner's email when the viewer shares a team with them, else null ('Member'). */
  ownerEmail: string | null
  teamId: string | null
  title: string
  description: string | null
  tags: string[]
  visibility: PromptVisibility
  currentVersionId: string | null
  currentVersionNumber: number | null
  versionCount: number
  createdAt: string
  updatedAt: string
}

export interface PromptVersion {
  id: string
  promptId: string
  versionNumber: number
  body: string
  changelog: string | null
  createdByUserId: string | null
  createdAt: string
}
