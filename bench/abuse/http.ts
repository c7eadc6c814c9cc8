import http from 'node:http'

/** The headers that make a request one caller's: a session (cookie and Origin), a Bearer or a Basic key. */
export type Caller = Record<string, string>

export interface Answer {
  /** 0 when no answer came (timeout, closed socket). */
  status: number
  /** The body's length in bytes, counted as it streams (a 200 MB answer is never held in memory). */
  bytes: number
  /** The start of the body, for error messages and the ids of a setup call. */
  head: string
  ms: number
  /** Why no answer, or no whole answer, came (`status` is then 0, or what the answer had begun with). */
  error?: string
}

const HEAD_CHARS = 64 * 1024

/**
 * One request on a connection of its own, bounded by `timeoutMs`: a server stuck on a hostile
 * request must not hang the harness. The body is counted, and only its start kept.
 */
export function send(
  base: string,
  method: string,
  path: string,
  caller: Caller,
  body: string | undefined,
  timeoutMs: number,
): Promise<Answer> {
  const started = performance.now()
  return new Promise((resolve) => {
    let bytes = 0
    let head = ''
    let status = 0
    let settled = false
    const finish = (error?: string) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve({ status, bytes, head, ms: performance.now() - started, error })
    }
    const headers: Record<string, string | number> = { ...caller }
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json'
      headers['Content-Length'] = Buffer.byteLength(body)
    }
    const request = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      status = res.statusCode ?? 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        if (head.length < HEAD_CHARS) head += chunk.toString('utf8', 0, Math.min(chunk.length, HEAD_CHARS))
      })
      res.on('end', () => finish())
      res.on('error', (error) => finish(error.message))
    })
    const timer = setTimeout(() => {
      finish(`no answer within ${timeoutMs} ms`)
      request.destroy()
    }, timeoutMs)
    request.on('error', (error: NodeJS.ErrnoException) => {
      // A server may refuse an oversized upload by answering and closing the connection before the
      // body is sent: the write then fails, and the refusal is recorded as such, not as a lost
      // answer (a crash or a hang is caught by the process and health checks, not here).
      if (status === 0 && body !== undefined && (error.code === 'EPIPE' || error.code === 'ECONNRESET')) {
        head = 'the server closed the connection while the body was sent'
        return finish()
      }
      finish(error.message)
    })
    request.end(body)
  })
}

/** A setup step's JSON answer; anything but `expected` stops the run with what the server said. */
export async function expectJson<T>(answer: Promise<Answer>, expected: number, what: string): Promise<T> {
  const { status, head, error } = await answer
  if (status !== expected)
    throw new Error(`${what}: expected ${expected}, got ${status || error} ${head.slice(0, 300)}`)
  return JSON.parse(head) as T
}

/** Signs an account up (the server then answers a session cookie) and answers the caller that session is. */
export async function signUp(
  base: string,
  email: string,
  password: string,
  timeoutMs: number,
): Promise<Caller> {
  const body = JSON.stringify({ email, password, confirmPassword: password, acceptTerms: true })
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${base}/api/v1/auth/sign-up`,
      {
        method: 'POST',
        agent: false,
        timeout: timeoutMs,
        headers: {
          Origin: base,
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = ''
        res.on('data', (chunk: Buffer) => {
          text += chunk
        })
        res.on('end', () => {
          if (res.statusCode !== 201)
            return reject(new Error(`sign-up of ${email}: ${res.statusCode} ${text}`))
          const cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ')
          resolve({ Cookie: cookie, Origin: base })
        })
      },
    )
    request.on('timeout', () => request.destroy(new Error(`sign-up of ${email}: no answer`)))
    request.on('error', reject)
    request.end(body)
  })
}

export const bearer = (secret: string): Caller => ({ Authorization: `Bearer ${secret}` })
export const basic = (publicKey: string, secret: string): Caller => ({
  Authorization: `Basic ${Buffer.from(`${publicKey}:${secret}`).toString('base64')}`,
})
