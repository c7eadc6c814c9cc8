import { LATEST_LABEL } from './prompt-names.ts'
import type { PromptReference } from './prompt-references.ts'

/**
 * What deleting some versions of a prompt takes away from the prompts that include it: the
 * versions themselves and the labels they hold (a label sits on one version). 'latest' is not
 * taken while a version remains: it moves to the highest remaining one.
 */
export interface DeletionEffect {
  /** Every version goes (the prompt with them): whatever names it breaks. */
  all: boolean
  versions: ReadonlySet<number>
  labels: ReadonlySet<string>
}

/**
 * Whether a reference to the prompt stops resolving after the delete: by a version that goes, or
 * by a label that only the deleted versions hold (Langfuse's rule for its DELETE).
 */
export function deletionBreaks(reference: PromptReference, effect: DeletionEffect): boolean {
  if (effect.all) return true
  if (reference.kind === 'version') return effect.versions.has(reference.version)
  if (reference.label === LATEST_LABEL) return false
  return effect.labels.has(reference.label)
}
