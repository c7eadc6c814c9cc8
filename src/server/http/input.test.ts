import { Hono } from 'hono'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { AppError } from '../../domain/errors.ts'
import { InvalidInput, pathParams, queryParams } from './input.ts'

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

describe('pathParams', () => {
  const id = '0b6f8e3c-5d2a-4c1b-9f3e-7a8b9c0d1e2f'
  /** An app answering the parsed parameters of `/items/:id/parts/:partId`, or the refusal. */
  const appParsing = (schema: z.ZodObject) =>
    new Hono()
      .onError((error) =>
        Response.json({
          notFound: error instanceof AppError && error.code === 'not_found',
          message: (error as AppError).messageKey,
        }),
      )
      .get('/items/:id/parts/:partId', (c) => c.json(pathParams(c, schema)))
  const ids = z.object({
    id: z.uuid({ error: 'prompts.notFound' }),
    partId: z.uuid({ error: 'prompts.versionNotFound' }),
  })

  it('answers ids as they were sent, decoded, and only the names the schema has', async () => {
    const app = appParsing(z.object({ id: z.uuid({ error: 'prompts.notFound' }) }))
    expect(await (await app.request(`/items/${id.toUpperCase()}/parts/${id}`)).json()).toEqual({
      id: id.toUpperCase(),
    })
    const encoded = `%30${id.slice(1)}`
    expect(await (await appParsing(ids).request(`/items/${encoded}/parts/${id}`)).json()).toEqual({
      id,
      partId: id,
    })
  })

  it('checks plain ids without running zod, and asks zod only for a refusal', async () => {
    const schema = z.object({ id: z.uuid({ error: 'prompts.notFound' }) })
    const parse = vi.spyOn(schema, 'safeParse')
    const app = appParsing(schema)
    expect(await (await app.request(`/items/${id}/parts/x`)).json()).toEqual({ id })
    expect(parse).not.toHaveBeenCalled()
    expect(await (await app.request('/items/x/parts/x')).json()).toMatchObject({ notFound: true })
    expect(parse).toHaveBeenCalledTimes(1)
  })

  it("refuses a malformed id as not found, with its parameter's message", async () => {
    const app = appParsing(ids)
    expect(await (await app.request(`/items/${id}x/parts/${id}`)).json()).toEqual({
      notFound: true,
      message: 'prompts.notFound',
    })
    expect(await (await app.request(`/items/${id}/parts/${id.replace('4c1b', '4c1')}`)).json()).toEqual({
      notFound: true,
      message: 'prompts.versionNotFound',
    })
  })

  it('leaves a schema with more than plain ids to zod: its transforms and checks apply', async () => {
    const lowered = z.object({ id: z.uuid().transform((text) => text.toLowerCase()) })
    expect(await (await appParsing(lowered).request(`/items/${id.toUpperCase()}/parts/x`)).json()).toEqual({
      id,
    })
    const refined = z.object({
      id: z.uuid().refine((text) => text.startsWith('f'), { error: 'teams.notFound' }),
    })
    expect(await (await appParsing(refined).request(`/items/${id}/parts/x`)).json()).toEqual({
      notFound: true,
      message: 'teams.notFound',
    })
    const named = z.object({ id: z.string().min(1), partId: z.uuid() })
    expect(await (await appParsing(named).request(`/items/a%00b/parts/${id}`)).json()).toEqual({
      notFound: true,
      message: 'error.unstorableCharacter',
    })
  })
})
