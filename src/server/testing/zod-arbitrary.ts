import fc from 'fast-check'
import type { z } from 'zod'

/**
 * fast-check arbitraries from the zod schemas the server validates with: values that mostly fit
 * the schema (so requests get past validation into the services), near its edges (lengths and
 * numbers at and just past each limit, wrong enum values, missing and extra keys), and hostile
 * values in any field (wrong types, unicode edge cases, huge and deeply nested values).
 *
 * A string `@name` stands for the seeded object `name` (`@promptId`): the fuzzer puts the real id
 * there when it sends the request, so a kept counterexample replays on another run's fixtures.
 */

/** Unicode and injection edge cases for any string field. */
export const edgeStrings = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  'e\u0301\u0301\u0301\u0301',
  '\u202eevil\u202c',
  'שלום עולם',
  'مرحبا',
  '👩‍👩‍👧‍👦',
  '\ufeffbom',
  '\u200b',
  '\r\n\t',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '%_\\',
  '{{name}}',
  '__proto__',
  '2026-02-30T00:00:00Z',
  '00000000-0000-0000-0000-000000000000',
]

/** Cursors that decode to nothing valid. */
export const badCursors = [
  'x',
  '!!!',
  btoa('2026-02-30T00:00:00Z|00000000-0000-0000-0000-000000000000'),
  btoa(`${'9'.repeat(500)}|x`),
  btoa('|'),
  btoa('\u0000|\u0000'),
  'eyJ9',
  '%00',
]

function nested(depth: number, array: boolean): unknown {
  let value: unknown = 'deep'
  for (let i = 0; i < depth; i += 1) value = array ? [value] : { a: value }
  return value
}

/** Values of the wrong type or absurd size, for any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...edgeStrings),
  fc.constantFrom<unknown>(null, true, false, 0, -1, 1.5, 1e308, -1e308, 2 ** 53, [], {}, [null], [{}]),
  fc.constantFrom<unknown>(nested(64, false), nested(64, true), 'x'.repeat(70_000)),
  fc.anything({ maxDepth: 2, maxKeys: 3, withNullPrototype: true }),
  fc.string({ unit: 'binary', maxLength: 40 }),
)

const lengthsAround = (min: number, max: number | null): number[] => {
  const lengths = [min, min + 1, Math.max(0, min - 1)]
  if (max !== null) lengths.push(max, max + 1, Math.max(0, max - 1))
  return [...new Set(lengths)].filter((length) => length <= 200_000)
}

interface Options {
  /** The seeded objects' names (`promptId`): uuid fields often name one as `@promptId`. */
  ids: readonly string[]
}

type Def = { type: string; [key: string]: unknown }
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def

/** Mostly-valid values for `schema`, each field sometimes replaced by a hostile one. */
export function arbitraryFor(schema: z.ZodType, options: Options, depth = 0): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 5, arbitrary: fitting(schema, options, depth) },
    { weight: 1, arbitrary: hostileValue },
  )
}

function fitting(schema: z.ZodType, options: Options, depth: number): fc.Arbitrary<unknown> {
  if (depth > 6) return hostileValue
  const def = defOf(schema)
  const any = schema as unknown as Record<string, unknown>
  switch (def.type) {
    case 'string':
      return stringArbitrary(any, options)
    case 'number': {
      const min = typeof any.minValue === 'number' && Number.isFinite(any.minValue) ? any.minValue : -1000
      const max = typeof any.maxValue === 'number' && Number.isFinite(any.maxValue) ? any.maxValue : 1000
      const inRange = any.isInt
        ? fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31) })
        : fc.double({ min, max, noNaN: true })
      return fc.oneof(inRange, fc.constantFrom(min, max, min - 1, max + 1, 0, -1, 0.5))
    }
    case 'boolean':
      return fc.boolean()
    case 'enum':
      return fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...Object.values(def.entries as Record<string, unknown>)) },
        { weight: 1, arbitrary: fc.constantFrom('nope', 'ADMIN', '') },
      )
    case 'literal':
      return fc.constantFrom(...(def.values as unknown[]))
    case 'array': {
      const checks =
        (def.checks as { _zod: { def: { check: string; minimum?: number; maximum?: number } } }[]) ?? []
      const min = checks.find((check) => check._zod.def.check === 'min_length')?._zod.def.minimum ?? 0
      const max = checks.find((check) => check._zod.def.check === 'max_length')?._zod.def.maximum ?? null
      const element = fitting(def.element as z.ZodType, options, depth + 1)
      const lengths = lengthsAround(min, max)
      return fc.oneof(
        {
          weight: 3,
          arbitrary: fc.array(element, { minLength: min, maxLength: Math.max(min, Math.min(max ?? 5, 5)) }),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(...lengths)
            .chain((length) => fc.array(element, { minLength: length, maxLength: length })),
        },
      )
    }
    case 'object': {
      const shape = def.shape as Record<string, z.ZodType>
      const entries = Object.entries(shape)
      const record = fc.record(
        Object.fromEntries(entries.map(([key, field]) => [key, arbitraryFor(field, options, depth + 1)])),
        { requiredKeys: entries.filter(([, field]) => !isOptional(field)).map(([key]) => key) },
      )
      return fc.oneof(
        { weight: 6, arbitrary: record },
        // Every key present, or an unknown key added.
        {
          weight: 1,
          arbitrary: fc.record(
            Object.fromEntries(entries.map(([key, field]) => [key, fitting(field, options, depth + 1)])),
          ),
        },
        { weight: 1, arbitrary: record.map((value) => ({ ...(value as object), unexpected: '\u0000' })) },
      )
    }
    case 'optional':
    case 'nullable':
      return fc.oneof(
        { weight: 1, arbitrary: fc.constant(def.type === 'optional' ? undefined : null) },
        { weight: 4, arbitrary: fitting(def.innerType as z.ZodType, options, depth) },
      )
    case 'default':
    case 'prefault':
    case 'catch':
    case 'readonly':
    case 'nonoptional':
      return fitting(def.innerType as z.ZodType, options, depth)
    case 'union':
      return fc.oneof(...(def.options as z.ZodType[]).map((option) => fitting(option, options, depth + 1)))
    case 'pipe':
      return fitting(def.in as z.ZodType, options, depth)
    case 'lazy':
      return fitting((def.getter as () => z.ZodType)(), options, depth + 1)
    case 'record':
      return fc.dictionary(
        fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom(...edgeStrings)),
        fitting(def.valueType as z.ZodType, options, depth + 1),
        { maxKeys: 4 },
      )
    case 'tuple':
      return fc.tuple(...(def.items as z.ZodType[]).map((item) => fitting(item, options, depth + 1)))
    case 'intersection':
      return fitting(def.left as z.ZodType, options, depth)
    default:
      return hostileValue
  }
}

function isOptional(schema: z.ZodType): boolean {
  const { type } = defOf(schema)
  return type === 'optional' || type === 'default' || type === 'prefault' || type === 'catch'
}

function stringArbitrary(schema: Record<string, unknown>, options: Options): fc.Arbitrary<unknown> {
  const format = schema.format as string | null
  if (format === 'uuid' || format === 'guid') {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...options.ids.map((id) => `@${id}`)) },
      { weight: 2, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.constantFrom('not-a-uuid', '00000000-0000-0000-0000-000000000000', '') },
    )
  }
  if (format === 'email') {
    return fc.oneof(
      fc.emailAddress(),
      fc.constantFrom(
        'a@b',
        '@example.com',
        'x@example.com\u0000',
        'ä@example.com',
        `${'a'.repeat(300)}@example.com`,
      ),
    )
  }
  if (format === 'url') {
    return fc.constantFrom(
      'https://93.184.215.14/hook',
      'http://127.0.0.1/x',
      'ftp://x',
      'javascript:alert(1)',
      'https://',
    )
  }
  if (format === 'regex') {
    const checks = (
      (schema as { _zod: { def: { checks?: { _zod: { def: Record<string, unknown> } }[] } } })._zod.def
        .checks ?? []
    ).map((check) => check._zod.def)
    const pattern = checks.find((check) => check.format === 'regex')?.pattern as RegExp | undefined
    // Unicode property classes make fast-check's generator slow; the plain strings below fit them.
    if (pattern && !/\\[pP]\{/.test(pattern.source)) {
      return fc.oneof(fc.stringMatching(pattern, { size: 'small' }), plainString(schema))
    }
  }
  return plainString(schema)
}

function plainString(schema: Record<string, unknown>): fc.Arbitrary<unknown> {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : null
  const lengths = lengthsAround(min, max)
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max ?? 30, 30)) }),
    },
    { weight: 2, arbitrary: fc.constantFrom(...lengths).map((length) => 'x'.repeat(length)) },
    { weight: 1, arbitrary: fc.constantFrom(...lengths).map((length) => 'é'.repeat(length)) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme-composite', maxLength: 12 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
    { weight: 2, arbitrary: fc.constantFrom(...edgeStrings) },
  )
}
