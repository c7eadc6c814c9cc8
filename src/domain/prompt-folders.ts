import { z } from 'zod'
import { PROMPT_NAME_MAX } from './prompt-names.ts'

/**
 * Folders are the slash-separated prefix of a prompt's name, as in Langfuse: `support/triage` is
 * `triage` in the folder `support`. They are not stored; the list filters by a name prefix.
 */
export function foldersOf(name: string): string[] {
  const segments = name.split('/').slice(0, -1)
  return segments.map((_, index) => segments.slice(0, index + 1).join('/'))
}

/** The name without its folder: what a list shows inside the folder. */
export function baseNameOf(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1)
}

/** `?folder=a/b`: the prompts whose names start with `a/b/` (any depth below it). */
export const folderParam = z
  .string({ error: 'error.invalidValue' })
  .trim()
  .max(PROMPT_NAME_MAX, 'error.invalidValue')
  .refine((folder) => folder === '' || folder.split('/').every((segment) => segment.trim() !== ''), {
    message: 'error.invalidValue',
  })
  .optional()
  .transform((folder) => folder || undefined)
