import { afterEach, describe, expect, it, vi } from 'vitest'
import { currentLanguage } from '../i18n/index.ts'
import { callOperation } from './api.ts'
import { startFirstReads } from './first-reads.ts'

const session = {
  id: 'account.session',
  group: 'account',
  name: 'session',
  spec: { method: 'GET', path: '/v1/session' },
} as const

/** A fetch that answers each request with its number, counting them. */
function countingFetch() {
  let count = 0
  const fetch = vi.fn(async () => new Response(JSON.stringify({ n: ++count }), { status: 200 }))
  vi.stubGlobal('fetch', fetch)
  return fetch
}

afterEach(() => {
  window.__promptfolioFirstReads = undefined
})

describe('the first reads the page started', () => {
  it('answer the first request of their URL, once; a later one asks the server again', async () => {
    const fetch = countingFetch()
    startFirstReads(['/api/v1/session'], currentLanguage())
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(await callOperation(session, {} as never)).toEqual({ n: 1 })
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(await callOperation(session, {} as never)).toEqual({ n: 2 })
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('are not taken in another language, nor for another URL', async () => {
    const fetch = countingFetch()
    startFirstReads(['/api/v1/session'], currentLanguage() === 'en' ? 'de' : 'en')
    expect(await callOperation(session, {} as never)).toEqual({ n: 2 })
    startFirstReads(['/api/v1/profile'], currentLanguage())
    expect(await callOperation(session, {} as never)).toEqual({ n: 4 })
    expect(fetch).toHaveBeenCalledTimes(4)
  })

  it('send the credentials and the language of the page', () => {
    const fetch = countingFetch()
    startFirstReads(['/api/v1/session'], 'de')
    expect(fetch).toHaveBeenCalledWith('/api/v1/session', {
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Accept-Language': 'de' },
    })
  })
})
