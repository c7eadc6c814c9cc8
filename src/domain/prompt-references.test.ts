import { describe, expect, it } from 'vitest'
import {
  MAX_REFERENCE_DEPTH,
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
})
