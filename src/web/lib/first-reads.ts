/**
 * The reads the page's first script started (`app/first-screen-start.ts`), handed to the API
 * client: a GET of the same URL, in the same language, within a few seconds of the page's start
 * takes the response already on its way instead of asking again. Each is taken once; a later
 * request of that URL (a refetch) asks the server anew.
 */
export interface FirstReads {
  /** The language of the requests' Accept-Language header. */
  language: string
  /** performance.now() when they left. */
  startedAt: number
  responses: Record<string, Promise<Response>>
}

declare global {
  interface Window {
    __promptfolioFirstReads?: FirstReads
  }
}

/** After this long a response started with the page counts as too old to show. */
const FRESH_MS = 10_000

/** Starts a GET of each of `urls` for the API client to take; answers them by URL. */
export function startFirstReads(
  urls: readonly string[],
  language: string,
): Record<string, Promise<Response>> {
  const responses: Record<string, Promise<Response>> = {}
  for (const url of urls) {
    const response = fetch(url, {
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Accept-Language': language },
    })
    // Not taken (another screen showed first): its failure is no one's error.
    response.catch(() => {})
    responses[url] = response
  }
  window.__promptfolioFirstReads = { language, startedAt: performance.now(), responses: { ...responses } }
  return responses
}

/** The response of a read the page started for `url` in `language`, once; else undefined. */
export function takeFirstRead(url: string, language: string): Promise<Response> | undefined {
  const reads = typeof window === 'undefined' ? undefined : window.__promptfolioFirstReads
  if (!reads || reads.language !== language) return undefined
  const response = reads.responses[url]
  if (!response) return undefined
  delete reads.responses[url]
  if (performance.now() - reads.startedAt > FRESH_MS) return undefined
  return response
}
