/**
 * References between prompts: a prompt includes another of its space with Langfuse's
 * tag `@@@langfusePrompt:name=NAME|label=LABEL@@@` or `…|version=N@@@`, read as Langfuse reads it
 * (the name first, exactly two parts; anything else is left as text). Resolution replaces every
 * tag with the referenced version's resolved text, at most MAX_REFERENCE_DEPTH prompts deep,
 * refusing cycles. Framework-free: the loading of a referenced version is passed in.
 *
 * Expansion multiplies: a few small prompts that each include the next many times resolve to
 * hundreds of megabytes. So a body holds at most MAX_REFERENCE_TAGS tags, a resolved text at most
 * MAX_RESOLVED_LENGTH characters (checked before each replacement, from the occurrence count and
 * the included length, so an oversized string is never built), one resolution reads at most
 * MAX_RESOLVED_REFERENCES distinct references, and each version is resolved once per resolution
 * however often it is included.
 */
import { z } from 'zod'

export const MAX_REFERENCE_DEPTH = 5
/** Tags (every occurrence, valid ones only) one body may hold. */
export const MAX_REFERENCE_TAGS = 50
/** Distinct references one resolution may read: each is a query, however small its text. */
export const MAX_RESOLVED_REFERENCES = 100
/** Characters a resolved text may have: 20 times a body's limit (PROMPT_LIMITS.body). */
export const MAX_RESOLVED_LENGTH = 1_000_000

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

/** How many tags of valid references a body holds, counting every occurrence. */
export function countReferenceTags(body: string, references = parseReferences(body)): number {
  let count = 0
  for (const reference of references) count += body.split(reference.tag).length - 1
  return count
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
  /** A body (of `prompt`) with more than MAX_REFERENCE_TAGS tags. */
  | { kind: 'too_many_tags'; prompt: string; count: number }
  /** The chain's last prompt would be the (MAX_RESOLVED_REFERENCES + 1)th distinct reference read. */
  | { kind: 'too_many_references'; chain: string[] }
  /** Including the chain's last prompt would make its includer longer than MAX_RESOLVED_LENGTH. */
  | { kind: 'too_large'; chain: string[] }

function problemText(problem: ReferenceProblem): string {
  switch (problem.kind) {
    case 'cycle':
      return `Circular prompt reference: ${problem.cycle.join(' → ')}`
    case 'too_deep':
      return `Prompt references nested deeper than ${MAX_REFERENCE_DEPTH} levels: ${problem.chain.join(' → ')}`
    case 'missing':
      return `Referenced prompt not found: ${problem.reference}`
    case 'not_text':
      return `Referenced prompt is not a text prompt: ${problem.reference}`
    case 'too_many_tags':
      return `Prompt ${problem.prompt} holds ${problem.count} references, more than ${MAX_REFERENCE_TAGS}`
    case 'too_many_references':
      return `Prompt references read more than ${MAX_RESOLVED_REFERENCES} versions: ${problem.chain.join(' → ')}`
    case 'too_large':
      return `Resolved prompt longer than ${MAX_RESOLVED_LENGTH} characters: ${problem.chain.join(' → ')}`
  }
}

export class PromptReferenceError extends Error {
  constructor(readonly problem: ReferenceProblem) {
    super(problemText(problem))
  }
}

/** A version resolved once: its text, and what decides whether that text may be reused elsewhere. */
interface Resolved {
  text: string
  /** Prompts on its longest chain, itself included. */
  height: number
  /** The names in its tree, itself included. */
  names: Set<string>
}

/**
 * Resolves `root`'s references recursively. `load` finds a reference's version in the root's
 * space (null when there is none). The root is level 1, so a chain holds at most
 * MAX_REFERENCE_DEPTH prompts. A prompt met again on its own chain is a cycle (by name, so two
 * versions of one prompt including each other count too). The graph is null without references.
 * A version resolved before is reused only where resolving it again would succeed (no name of its
 * tree on the chain, room for its height), so the reuse changes no answer, only the work: a version
 * is resolved once, and resolving it again happens only on the way to the error that ends it all.
 */
export async function resolveReferences(
  root: ReferencedVersion,
  load: (reference: PromptReference) => Promise<ReferencedVersion | null>,
): Promise<{ text: string; graph: ResolutionGraph | null }> {
  const graph: ResolutionGraph = {
    root: { id: root.id, name: root.name, version: root.version },
    dependencies: {},
  }
  const loaded = new Map<string, Promise<ReferencedVersion | null>>()
  const loadOnce = (reference: PromptReference, chain: string[]) => {
    let found = loaded.get(reference.tag)
    if (!found) {
      if (loaded.size >= MAX_RESOLVED_REFERENCES) {
        throw new PromptReferenceError({ kind: 'too_many_references', chain: [...chain, reference.name] })
      }
      found = load(reference)
      loaded.set(reference.tag, found)
    }
    return found
  }
  const done = new Map<string, Resolved>()
  const reusable = (target: ReferencedVersion, chain: string[]) => {
    const resolved = done.get(target.id)
    if (!resolved || chain.length + resolved.height > MAX_REFERENCE_DEPTH) return null
    return chain.some((name) => resolved.names.has(name)) ? null : resolved
  }

  const resolve = async (current: ReferencedVersion, chain: string[]): Promise<Resolved> => {
    const references = parseReferences(current.body)
    const tags = countReferenceTags(current.body, references)
    if (tags > MAX_REFERENCE_TAGS) {
      throw new PromptReferenceError({ kind: 'too_many_tags', prompt: current.name, count: tags })
    }
    const own: Resolved = { text: current.body, height: 1, names: new Set([current.name]) }
    for (const reference of references) {
      const target = await loadOnce(reference, chain)
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
      const included = reusable(target, chain) ?? (await resolve(target, [...chain, target.name]))
      // A chat body is JSON: the included text goes in as the inside of a JSON string.
      const replacement = current.type === 'chat' ? JSON.stringify(included.text).slice(1, -1) : included.text
      const parts = own.text.split(reference.tag)
      const length = own.text.length + (parts.length - 1) * (replacement.length - reference.tag.length)
      if (length > MAX_RESOLVED_LENGTH) {
        throw new PromptReferenceError({ kind: 'too_large', chain: [...chain, target.name] })
      }
      own.text = parts.join(replacement)
      own.height = Math.max(own.height, included.height + 1)
      for (const name of included.names) own.names.add(name)
    }
    done.set(current.id, own)
    return own
  }
  const { text } = await resolve(root, [root.name])
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
