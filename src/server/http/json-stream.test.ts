import { describe, expect, it } from 'vitest'
import { type JsonPath, JsonStreamParser, JsonSyntaxError, parseJsonBytes } from './json-stream.ts'

const utf8 = (text: string) => new TextEncoder().encode(text)

/** What the HTTP layer parsed before: the body decoded as `Request.text()` does, then `JSON.parse`. */
function reference(bytes: Uint8Array): { value: unknown } | { error: true } {
  try {
    return { value: JSON.parse(new TextDecoder().decode(bytes)) }
  } catch {
    return { error: true }
  }
}

function parsed(pieces: Uint8Array[]): { value: unknown } | { error: true } {
  try {
    return { value: parseJsonBytes(pieces) }
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error
    return { error: true }
  }
}

/** The document cut once at every byte, and in single bytes: each must parse as JSON.parse does. */
function expectSameEverywhere(bytes: Uint8Array) {
  const expected = reference(bytes)
  expect(parsed([bytes]), 'whole').toStrictEqual(expected)
  for (let cut = 0; cut <= bytes.length; cut++) {
    expect(parsed([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toStrictEqual(expected)
  }
  expect(parsed([...bytes].map((byte) => Uint8Array.of(byte))), 'byte by byte').toStrictEqual(expected)
}

const valid = [
  '{}',
  '[]',
  '0',
  '-0',
  '  true ',
  'false',
  'null',
  '"text"',
  '{"a":1,"b":[1,2,{"c":null}],"d":"x"}',
  ' [ 1 , -2.5e+3 , 1E-2 , 0.125 , 123456789012345678901234567890 , 1e400 ] ',
  '"escapes: \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u0041 \\u00e9 \\u20AC \\ud83d\\ude00"',
  '"a lone surrogate \\ud800 and a lone low one \\udc00x"',
  '"unescaped: é € 😀 中文 ü"',
  '{"é€😀":"😀😀😀","k":"\\u0000"}',
  '{"a":1,"a":2,"b":3}',
  '{"__proto__":{"polluted":true},"x":1}',
  '[[[[[[[[[[[]]]]]]]]]]]',
  '{"a":{"b":{"c":{"d":[{"e":[]}]}}}}',
  '\t\n\r [1]\n',
  '"\\\\u0041"',
]

const invalid = [
  '',
  ' ',
  '{',
  '[1,',
  '[1,]',
  '{"a":1,}',
  '{"a" 1}',
  '{a:1}',
  "{'a':1}",
  '[01]',
  '[1.]',
  '[.5]',
  '[+1]',
  '[1e]',
  '[-]',
  '[--1]',
  '[1 2]',
  '"unterminated',
  '"bad escape \\x"',
  '"short unicode \\u12"',
  '"bad unicode \\u12G4"',
  '"raw newline \n in a string"',
  '"raw tab \t in a string"',
  'tru',
  'nul',
  'truex',
  '[true false]',
  '{} {}',
  '[] x',
  '1 2',
  '{"a":1}}',
  ']',
  '}',
  '[}',
  '{]',
  '/* comment */ {}',
  'NaN',
  '[Infinity]',
  '"a" "b"',
]

describe('JsonStreamParser', () => {
  it.each(valid)('parses %j as JSON.parse does, cut anywhere', (text) => {
    const bytes = utf8(text)
    expect(reference(bytes)).not.toHaveProperty('error')
    expectSameEverywhere(bytes)
  })

  it.each(invalid)('refuses %j as JSON.parse does, cut anywhere', (text) => {
    const bytes = utf8(text)
    expect(reference(bytes)).toStrictEqual({ error: true })
    expectSameEverywhere(bytes)
  })

  it('keeps __proto__ an own property and duplicate keys the last value, in the first key’s place', () => {
    const value = parseJsonBytes([utf8('{"__proto__":{"x":1},"a":1,"b":2,"a":3}')]) as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toStrictEqual(['__proto__', 'a', 'b'])
    expect(value.a).toBe(3)
    expect(({} as Record<string, unknown>).x).toBeUndefined()
  })

  it('decodes multi-byte characters cut between pieces, and invalid UTF-8 as the body’s text did', () => {
    // Invalid and truncated sequences become U+FFFD, as Request.text() decodes them.
    for (const bytes of [
      Uint8Array.of(0x22, 0xf0, 0x9f, 0x98, 0x80, 0xc3, 0xa9, 0x22),
      Uint8Array.of(0x22, 0xff, 0x41, 0xe2, 0x82, 0x22),
      Uint8Array.of(0x22, 0xe2, 0x82, 0x5c, 0x6e, 0xc3, 0x22),
      Uint8Array.of(0x22, 0xed, 0xa0, 0x80, 0x22),
    ]) {
      expectSameEverywhere(bytes)
    }
  })

  it('skips a byte order mark as the body’s text did, and only one', () => {
    expectSameEverywhere(Uint8Array.of(0xef, 0xbb, 0xbf, 0x7b, 0x7d))
    expectSameEverywhere(Uint8Array.of(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf, 0x7b, 0x7d))
    expectSameEverywhere(Uint8Array.of(0xef, 0xbb, 0x7b, 0x7d))
    expectSameEverywhere(Uint8Array.of(0x20, 0xef, 0xbb, 0xbf, 0x7b, 0x7d))
  })

  it('tells an empty body (a byte order mark at most) from a blank one', () => {
    const empty = (pieces: Uint8Array[]) => {
      const parser = new JsonStreamParser()
      for (const piece of pieces) parser.write(piece)
      return parser.empty
    }
    expect(empty([])).toBe(true)
    expect(empty([Uint8Array.of(0xef, 0xbb), Uint8Array.of(0xbf)])).toBe(true)
    expect(empty([Uint8Array.of(0xef, 0xbb)])).toBe(false)
    expect(empty([utf8(' ')])).toBe(false)
  })

  it('nests as deep as memory allows, without a stack overflow', () => {
    const depth = 200_000
    const value = parseJsonBytes([utf8('['.repeat(depth)), utf8(']'.repeat(depth))])
    let levels = 0
    for (let at = value; Array.isArray(at); at = at[0]) levels++
    expect(levels).toBe(depth)
    expect(() => parseJsonBytes([utf8(`${'['.repeat(depth)}${']'.repeat(depth - 1)}`)])).toThrow(
      JsonSyntaxError,
    )
  })

  it('says where the text stopped being JSON', () => {
    const parser = new JsonStreamParser()
    parser.write(utf8('{"a": [1, 2'))
    expect(() => parser.write(utf8(', }'))).toThrow(expect.objectContaining({ offset: 13 }))
  })

  describe('streamed arrays', () => {
    const document = {
      format: 'x',
      prompts: [{ name: 'a', versions: [{ body: 'é😀' }] }, 2, 'three', [4], null, { name: 'b' }],
      after: { prompts: [1, 2] },
    }
    const bytes = utf8(JSON.stringify(document))

    function streamed(pieces: Uint8Array[], at: JsonPath = ['prompts']) {
      const elements: [unknown, number][] = []
      const starts: (string | number)[][] = []
      const parser = new JsonStreamParser({
        streamAt: at,
        onStreamStart: (_parent, key) => {
          starts.push([key])
          return `streamed ${starts.length}`
        },
        onElement: (value, index) => elements.push([value, index]),
      })
      for (const piece of pieces) parser.write(piece)
      return { root: parser.end(), elements, starts }
    }

    it('hands over each element of the chosen array once complete, cut anywhere, and keeps the rest', () => {
      const expected = {
        root: { ...document, prompts: 'streamed 1' },
        elements: document.prompts.map((element, index) => [element, index]),
        starts: [['prompts']],
      }
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(streamed([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toStrictEqual(
          expected,
        )
      }
    })

    it('finds an array by its path only, indexes included', () => {
      expect(streamed([bytes], ['after', 'prompts']).elements).toStrictEqual([
        [1, 0],
        [2, 1],
      ])
      const nested = streamed([utf8('[[0],[1,[2,3]],[4]]')], [1, 1])
      expect(nested.root).toStrictEqual([[0], [1, 'streamed 1'], [4]])
      expect(nested.elements).toStrictEqual([
        [2, 0],
        [3, 1],
      ])
      expect(streamed([utf8('[5,6]')], []).root).toBe('streamed 1')
    })

    it('streams every array at the path when a key repeats (the last one is the value)', () => {
      const twice = streamed([utf8('{"prompts":[1],"prompts":[2,3]}')])
      expect(twice.root).toStrictEqual({ prompts: 'streamed 2' })
      expect(twice.starts).toHaveLength(2)
      expect(twice.elements).toStrictEqual([
        [1, 0],
        [2, 0],
        [3, 1],
      ])
    })

    it('refuses a truncated or trailing-garbage document after the elements it completed', () => {
      const text = JSON.stringify({ prompts: [{ a: 1 }, { b: 2 }] })
      expect(() => streamed([utf8(text.slice(0, -3))])).toThrow(JsonSyntaxError)
      expect(() => streamed([utf8(`${text}x`)])).toThrow(JsonSyntaxError)
    })
  })
})
