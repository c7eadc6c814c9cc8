import { describe, expect, it } from 'vitest'
import {
  countReferenceTags,
  MAX_REFERENCE_DEPTH,
  MAX_REFERENCE_TAGS,
  MAX_RESOLVED_LENGTH,
  MAX_RESOLVED_REFERENCES,
  type PromptReference,
  PromptReferenceError,
  parseReferences,
  type ReferencedVersion,
  resolveReferences,
} from './prompt-references.ts'

describe('parseReferences', () => {
  it('reads label and version tags as Langfuse does, once each', () => {
    const body =
      'A @@@langfusePrompt:name=base|label=production@@@ B @@@langfusePrompt:name=tone/formal|version=3@@@ ' +
      '@@@langfusePrompt:name=base|label=production@@@'
    expect(parseReferences(body)).toEqual([
      {
        tag: '@@@langfusePrompt:name=base|label=production@@@',
        name: 'base',
        kind: 'label',
        label: 'production',
      },
      {
        tag: '@@@langfusePrompt:name=tone/formal|version=3@@@',
        name: 'tone/formal',
        kind: 'version',
        version: 3,
      },
    ])
  })

  it('leaves malformed tags as text', () => {
    for (const body of [
      '@@@langfusePrompt:label=x|name=a@@@',
      '@@@langfusePrompt:name=a@@@',
      '@@@langfusePrompt:name=a|label=x|version=2@@@',
      '@@@langfusePrompt:name=a|version=zero@@@',
      '@@@langfusePrompt:name=a|version=0@@@',
      '@@@langfusePrompt:name=|label=x@@@',
      '@@langfusePrompt:name=a|label=x@@',
    ]) {
      expect(parseReferences(body), body).toEqual([])
    }
  })
})

function store(prompts: Record<string, string>) {
  const versions = Object.entries(prompts).map(
    ([name, body], i): ReferencedVersion => ({ id: `id-${i}`, name, version: 1, type: 'text', body }),
  )
  return (reference: PromptReference) =>
    Promise.resolve(versions.find((v) => v.name === reference.name) ?? null)
}
const tag = (name: string) => `@@@langfusePrompt:name=${name}|label=production@@@`
const root = (body: string): ReferencedVersion => ({
  id: 'root',
  name: 'root',
  version: 2,
  type: 'text',
  body,
})

describe('resolveReferences', () => {
  it('replaces tags recursively and reports the graph as Langfuse does', async () => {
    const load = store({ a: `A(${tag('b')})`, b: 'B' })
    const result = await resolveReferences(root(`start ${tag('a')} and ${tag('b')} $& end`), load)
    expect(result.text).toBe('start A(B) and B $& end')
    expect(result.graph).toEqual({
      root: { id: 'root', name: 'root', version: 2 },
      dependencies: {
        root: [
          { id: 'id-0', name: 'a', version: 1 },
          { id: 'id-1', name: 'b', version: 1 },
        ],
        'id-0': [{ id: 'id-1', name: 'b', version: 1 }],
      },
    })
  })

  it('gives a null graph without references', async () => {
    expect(await resolveReferences(root('plain'), store({}))).toEqual({ text: 'plain', graph: null })
  })

  it('allows a chain of 5 prompts and refuses a sixth', async () => {
    const chain = { p1: tag('p2'), p2: tag('p3'), p3: tag('p4'), p4: 'end', p5: 'deep' }
    expect((await resolveReferences(root(tag('p1')), store(chain))).text).toBe('end')
    expect(MAX_REFERENCE_DEPTH).toBe(5)
    const tooDeep = { ...chain, p4: tag('p5') }
    await expect(resolveReferences(root(tag('p1')), store(tooDeep))).rejects.toMatchObject({
      problem: { kind: 'too_deep', chain: ['root', 'p1', 'p2', 'p3', 'p4', 'p5'] },
    })
  })

  it('refuses a cycle, naming it', async () => {
    const load = store({ a: tag('b'), b: tag('root'), root: 'never read' })
    const error = await resolveReferences(root(tag('a')), load).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PromptReferenceError)
    expect((error as PromptReferenceError).problem).toEqual({
      kind: 'cycle',
      cycle: ['root', 'a', 'b', 'root'],
    })
    expect((error as PromptReferenceError).message).toBe('Circular prompt reference: root → a → b → root')
  })

  it('refuses a missing reference and a chat prompt', async () => {
    await expect(resolveReferences(root(tag('gone')), store({}))).rejects.toMatchObject({
      problem: { kind: 'missing', reference: 'gone (label production)' },
    })
    const chat: ReferencedVersion = { id: 'c', name: 'chat', version: 1, type: 'chat', body: '[]' }
    await expect(resolveReferences(root(tag('chat')), () => Promise.resolve(chat))).rejects.toMatchObject({
      problem: { kind: 'not_text' },
    })
  })

  it('escapes included text inside a chat body', async () => {
    const chatRoot: ReferencedVersion = {
      id: 'r',
      name: 'r',
      version: 1,
      type: 'chat',
      body: JSON.stringify([{ role: 'system', content: `Be ${tag('q')}` }]),
    }
    const { text } = await resolveReferences(chatRoot, store({ q: 'brief "and"\nkind' }))
    expect(JSON.parse(text)).toEqual([{ role: 'system', content: 'Be brief "and"\nkind' }])
  })

  it('reuses a version it resolved before, and still refuses a cycle or depth that reuse would hide', async () => {
    // Two versions of N: root includes X (which includes N version 2) and N version 1 (which
    // includes X): on the chain root → N → X, X's N is a cycle, although X resolved fine before.
    const versions: Record<string, ReferencedVersion> = {
      X: { id: 'x', name: 'X', version: 1, type: 'text', body: '@@@langfusePrompt:name=N|version=2@@@' },
      N1: { id: 'n1', name: 'N', version: 1, type: 'text', body: tag('X') },
      N2: { id: 'n2', name: 'N', version: 2, type: 'text', body: 'plain' },
    }
    const load = (reference: PromptReference) =>
      Promise.resolve(
        reference.name === 'X'
          ? versions.X!
          : reference.kind === 'version' && reference.version === 2
            ? versions.N2!
            : versions.N1!,
      )
    await expect(
      resolveReferences(root(`${tag('X')} @@@langfusePrompt:name=N|version=1@@@`), load),
    ).rejects.toMatchObject({ problem: { kind: 'cycle', cycle: ['N', 'X', 'N'] } })

    // p2 → p3 → p4 fits under the root, but not under root → q1 → q2.
    const deep = store({ p2: tag('p3'), p3: tag('p4'), p4: 'end', q1: tag('q2'), q2: tag('p2') })
    await expect(resolveReferences(root(`${tag('p2')} ${tag('q1')}`), deep)).rejects.toMatchObject({
      problem: { kind: 'too_deep', chain: ['root', 'q1', 'q2', 'p2', 'p3', 'p4'] },
    })
  })
})

describe('resolution bounds', () => {
  const repeat = (text: string, times: number) => Array.from({ length: times }, () => text).join(' ')

  it('counts every occurrence of a valid tag, and refuses a body with more than MAX_REFERENCE_TAGS', async () => {
    expect(MAX_REFERENCE_TAGS).toBe(50)
    expect(countReferenceTags(`${repeat(tag('c'), 3)} ${tag('d')} @@@langfusePrompt:name=e@@@`)).toBe(4)
    const load = store({ c: 'C' })
    expect((await resolveReferences(root(repeat(tag('c'), 50)), load)).text).toBe(repeat('C', 50))
    await expect(resolveReferences(root(repeat(tag('c'), 51)), load)).rejects.toMatchObject({
      problem: { kind: 'too_many_tags', prompt: 'root', count: 51 },
    })
    // An included prompt's own body counts too: it is refused wherever it is met.
    await expect(
      resolveReferences(root(tag('b')), store({ b: repeat(tag('c'), 1000), c: 'C' })),
    ).rejects.toMatchObject({ problem: { kind: 'too_many_tags', prompt: 'b', count: 1000 } })
  })

  it('refuses a text that would resolve past MAX_RESOLVED_LENGTH, naming the chain, before building it', async () => {
    expect(MAX_RESOLVED_LENGTH).toBe(1_000_000)
    // 10,000 characters, included 50 times, included 20 times: 10 MB from three small bodies.
    const load = store({ lolb: repeat(tag('lolc'), 50), lolc: 'L'.repeat(10_000) })
    const joins: number[] = []
    const join = Array.prototype.join
    Array.prototype.join = function (this: unknown[], separator?: string) {
      const joined = join.call(this, separator)
      joins.push(joined.length)
      return joined
    }
    try {
      await expect(resolveReferences(root(repeat(tag('lolb'), 20)), load)).rejects.toMatchObject({
        problem: { kind: 'too_large', chain: ['root', 'lolb'] },
      })
    } finally {
      Array.prototype.join = join
    }
    expect(Math.max(...joins)).toBeLessThanOrEqual(MAX_RESOLVED_LENGTH)
    // Exactly the limit is fine.
    const exact = store({ full: 'F'.repeat(MAX_RESOLVED_LENGTH / 20) })
    expect((await resolveReferences(root(tag('full').repeat(20)), exact)).text).toHaveLength(
      MAX_RESOLVED_LENGTH,
    )
  })

  const levels = (width: number) => {
    const bodies: Record<string, string> = {}
    for (let level = 1; level <= 4; level++) {
      for (let i = 0; i < width; i++) {
        bodies[`l${level}-${i}`] =
          level === 4 ? '' : Array.from({ length: width }, (_, j) => tag(`l${level + 1}-${j}`)).join('')
      }
    }
    const top = root(Array.from({ length: width }, (_, i) => tag(`l1-${i}`)).join(''))
    return { bodies, top }
  }

  it('loads and resolves each version once however often it is included', async () => {
    // Four levels of 25 prompts, each including all 25 of the next: 25⁴ inclusions unshared.
    const { bodies, top } = levels(25)
    const stored = store(bodies)
    let loads = 0
    const load = (reference: PromptReference) => {
      loads++
      return stored(reference)
    }
    const result = await resolveReferences(top, load)
    expect(result.text).toBe('')
    expect(loads).toBe(100)
  })

  it('refuses to read more than MAX_RESOLVED_REFERENCES distinct references', async () => {
    const { bodies, top } = levels(26)
    let loads = 0
    const stored = store(bodies)
    const load = (reference: PromptReference) => {
      loads++
      return stored(reference)
    }
    await expect(resolveReferences(top, load)).rejects.toMatchObject({
      problem: { kind: 'too_many_references', chain: ['root', 'l1-22'] },
    })
    expect(loads).toBe(MAX_RESOLVED_REFERENCES)
  })
})
