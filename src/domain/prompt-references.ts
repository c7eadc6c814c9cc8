/**
 * References between prompts (issue 17): a prompt includes another of its space with Langfuse's
 * tag `@@@langfusePrompt:name=NAME|label=LABEL@@@` or `…|version=N@@@`, read as Langfuse reads it
 * (the name first, exactly two parts; anything else is left as text). Resolution replaces every
 * tag with the referenced version's resolved text, at most MAX_REFERENCE_DEPTH prompts deep,
 * refusing cycles. Framework-free: the loading of a referenced version is passed in.
 */
import { z } from 'zod'

export const MAX_REFERENCE_DEPTH = 5

export type PromptReference =
  | { tag: string; name: string; kind: 'label'; label: string }
  | { tag: string; name: string; kind: 'version'; version: number }

const tagPattern = /@@@langfusePrompt:(.*?)@@@/g

/** The distinct valid references in a body, in order of first appearance. */
export function parseReferences(body: string): PromptReference[] {
  const found: PromptReference[] = []
  const seen = new Set<string>()
  for (const match of body.matchAll(tagPattern)) {
    const tag = match[0]
    if (seen.has(tag)) continue
    seen.add(tag)
    const parts = (match[1] ?? '').split('|')
    if (parts.length !== 2 || !parts[0]!.startsWith('name=')) continue
    const name = parts[0]!.slice('name='.length)
    const [key, ...rest] = parts[1]!.split('=')
    const value = rest.join('=')
    if (!name || !value) continue
    if (key === 'label') found.push({ tag, name, kind: 'label', label: value })
    else if (key === 'version' && /^[1-9]\d{0,8}$/.test(value)) {
      found.push({ tag, name, kind: 'version', version: Number(value) })
    }
  }
  return found
}

/** How a reference reads in a message: `name (label x)` or `name (version 3)`. */
export function describeReference(reference: PromptReference): string {
  return reference.kind === 'label'
    ? `${reference.name} (label ${reference.label})`
    : `${reference.name} (version ${reference.version})`
}

/** A version as resolution sees it. */
export interface ReferencedVersion {
  /** The version's id. */
  id: string
  name: string
  version: number
  type: 'text' | 'chat'
  body: string
}

/** Langfuse's `resolutionGraph`: the root version and, per version id, the versions it includes. */
export interface ResolutionGraph {
  root: { id: string; name: string; version: number }
  dependencies: Record<string, { id: string; name: string; version: number }[]>
}

export type ReferenceProblem =
  | { kind: 'missing'; reference: string }
  | { kind: 'not_text'; reference: string }
  | { kind: 'cycle'; cycle: string[] }
  | { kind: 'too_deep'; chain: string[] }

export class PromptReferenceError extends Error {
  constructor(readonly problem: ReferenceProblem) {
    super(
      problem.kind === 'cycle'
        ? `Circular prompt reference: ${problem.cycle.join(' → ')}`
        : problem.kind === 'too_deep'
          ? `Prompt references nested deeper than ${MAX_REFERENCE_DEPTH} levels: ${problem.chain.join(' → ')}`
          : problem.kind === 'missing'
            ? `Referenced prompt not found: ${problem.reference}`
            : `Referenced prompt is not a text prompt: ${problem.reference}`,
    )
  }
}

/**
 * Resolves `root`'s references recursively. `load` finds a reference's version in the root's
 * space (null when there is none). The root is level 1, so a chain holds at most
 * MAX_REFERENCE_DEPTH prompts. A prompt met again on its own chain is a cycle (by name, so two
 * versions of one prompt including each other count too). The graph is null without references.
 */
export async function resolveReferences(
  root: ReferencedVersion,
  load: (reference: PromptReference) => Promise<ReferencedVersion | null>,
): Promise<{ text: string; graph: ResolutionGraph | null }> {
  const graph: ResolutionGraph = {
    root: { id: root.id, name: root.name, version: root.version },
    dependencies: {},
  }
  const resolve = async (current: ReferencedVersion, chain: string[]): Promise<string> => {
    const references = parseReferences(current.body)
    let text = current.body
    for (const reference of references) {
      const target = await load(reference)
      if (!target)
        throw new PromptReferenceError({ kind: 'missing', reference: describeReference(reference) })
      if (target.type !== 'text') {
        throw new PromptReferenceError({ kind: 'not_text', reference: describeReference(reference) })
      }
      if (chain.includes(target.name)) {
        throw new PromptReferenceError({
          kind: 'cycle',
          cycle: [...chain.slice(chain.indexOf(target.name)), target.name],
        })
      }
      if (chain.length >= MAX_REFERENCE_DEPTH) {
        throw new PromptReferenceError({ kind: 'too_deep', chain: [...chain, target.name] })
      }
      graph.dependencies[current.id] ??= []
      graph.dependencies[current.id]!.push({ id: target.id, name: target.name, version: target.version })
      const included = await resolve(target, [...chain, target.name])
      // A chat body is JSON: the included text goes in as the inside of a JSON string.
      const replacement = current.type === 'chat' ? JSON.stringify(included).slice(1, -1) : included
      text = text.split(reference.tag).join(replacement)
    }
    return text
  }
  const text = await resolve(root, [root.name])
  return { text, graph: Object.keys(graph.dependencies).length > 0 ? graph : null }
}

const graphNode = z.object({ id: z.string(), name: z.string(), version: z.number().int() })

/**
 * `GET /api/v1/prompts/{id}/versions/{versionId}/resolved`: a version's body with its references
 * replaced (what compile and "Try it" fill in), and Langfuse's graph (null without references).
 */
export const resolvedVersionSchema = z.object({
  versionId: z.uuid(),
  versionNumber: z.number().int(),
  body: z.string(),
  resolutionGraph: z
    .object({ root: graphNode, dependencies: z.record(z.string(), z.array(graphNode)) })
    .nullable(),
})
export type ResolvedVersion = z.infer<typeof resolvedVersionSchema>
