import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { InvalidInput, queryParams } from './input.ts'

const schema = z.object({
  label: z.string().min(1).optional(),
  version: z.coerce.number().int().positive().optional(),
  tag: z.union([z.string(), z.array(z.string())]).optional(),
})

/** An app answering what `queryParams` returned, and whether it was frozen. */
function appSeeing(seen: unknown[]) {
  return new Hono()
    .onError((error) =>
      Response.json({
        invalid: error instanceof InvalidInput,
        fields: (error as InvalidInput).options?.fields,
      }),
    )
    .get('/q', (c) => {
      const query = queryParams(c, schema)
      seen.push(query)
      return c.json({ query, frozen: Object.isFrozen(query) })
    })
}

describe('queryParams', () => {
  it('parses a repeated query string once and hands out the same frozen answer', async () => {
    const seen: unknown[] = []
    const app = appSeeing(seen)
    const first = await (await app.request('/q?label=production&version=3')).json()
    const second = await (await app.request('/q?label=production&version=3')).json()
    expect(first).toEqual({ query: { label: 'production', version: 3 }, frozen: true })
    expect(second).toEqual(first)
    expect(seen[1]).toBe(seen[0])
    expect(() => {
      ;(seen[0] as { label: string }).label = 'changed'
    }).toThrow(TypeError)
  })

  it('freezes the arrays inside a kept answer too', async () => {
    const seen: unknown[] = []
    await appSeeing(seen).request('/q?tag=a&tag=b')
    const { tag } = seen[0] as { tag: string[] }
    expect(tag).toEqual(['a', 'b'])
    expect(() => tag.push('c')).toThrow(TypeError)
  })

  it('answers each query string with its own parse, and never keeps a refusal', async () => {
    const seen: unknown[] = []
    const app = appSeeing(seen)
    expect(await (await app.request('/q?version=2')).json()).toMatchObject({ query: { version: 2 } })
    expect(await (await app.request('/q?version=0')).json()).toMatchObject({ invalid: true })
    expect(await (await app.request('/q?version=0')).json()).toMatchObject({ invalid: true })
    expect(await (await app.request('/q')).json()).toMatchObject({ query: {} })
    expect(await (await app.request('/q?version=2')).json()).toMatchObject({ query: { version: 2 } })
  })

  it('stays right past the number of kept strings and for strings too long to keep', async () => {
    const seen: unknown[] = []
    const app = appSeeing(seen)
    for (let round = 0; round < 2; round++) {
      for (let version = 1; version <= 150; version++) {
        const answer = await (await app.request(`/q?version=${version}`)).json()
        expect(answer).toMatchObject({ query: { version } })
      }
    }
    const long = 'x'.repeat(300)
    const a = await (await app.request(`/q?label=${long}`)).json()
    const b = await (await app.request(`/q?label=${long}`)).json()
    expect(a).toEqual({ query: { label: long }, frozen: false })
    expect(b).toEqual(a)
    expect(seen.at(-1)).not.toBe(seen.at(-2))
  })
})
