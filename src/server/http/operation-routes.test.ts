import { describe, expect, it } from 'vitest'
import { routeOfOperation } from './operation-routes.ts'

const address = (method: string, path: string) => ({ method, segments: path.split('/') })
const declared = [
  address('GET', '/api/v1/prompts/tags'),
  address('GET', '/api/v1/prompts/:id'),
  address('GET', '/api/v1/prompts/:id/versions'),
  address('POST', '/api/v1/prompts/import'),
  address('POST', '/api/v1/prompts/:id/run'),
  address('GET', '/api/v1/me/exports/latest'),
  address('GET', '/api/v1/me/exports/:exportId/archive'),
  address('GET', '/api/v1/conversations'),
  address('GET', '/api/v1/conversations/:id'),
]

describe('routeOfOperation', () => {
  it('routes a fixed segment beside a parameter by that parameter, named as its neighbour names it', () => {
    expect(routeOfOperation('GET', '/api/v1/prompts/tags', declared)).toEqual({
      pattern: '/api/v1/prompts/:id',
      literal: { param: 'id', text: 'tags' },
    })
    expect(routeOfOperation('POST', '/api/v1/prompts/import', declared)).toEqual({
      pattern: '/api/v1/prompts/:id',
      literal: { param: 'id', text: 'import' },
    })
    expect(routeOfOperation('GET', '/api/v1/me/exports/latest', declared)).toEqual({
      pattern: '/api/v1/me/exports/:exportId',
      literal: { param: 'exportId', text: 'latest' },
    })
  })

  it('leaves the other paths as declared: parameters, other methods, other lengths before the parameter', () => {
    expect(routeOfOperation('GET', '/api/v1/prompts/:id', declared)).toEqual({
      pattern: '/api/v1/prompts/:id',
    })
    expect(routeOfOperation('GET', '/api/v1/conversations', declared)).toEqual({
      pattern: '/api/v1/conversations',
    })
    expect(routeOfOperation('PUT', '/api/v1/prompts/tags', declared)).toEqual({
      pattern: '/api/v1/prompts/tags',
    })
  })
})
