import type { MiddlewareHandler } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { AppError } from '../../domain/errors.ts'
import { isCompleteAnswer } from './answer-headers.ts'
import type { AppEnv } from './env.ts'

/** CSP and friends (ASVS V3/V14). Styles allow inline attributes, which Radix uses for positioning. */
export function secureHeadersOptions(appUrl: string): Parameters<typeof secureHeaders>[0] {
  return {
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      frameAncestors: ["'self'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      objectSrc: ["'none'"],
    },
    xFrameOptions: 'SAMEORIGIN',
    referrerPolicy: 'strict-origin-when-cross-origin',
    strictTransportSecurity: hsts(appUrl),
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
    xXssProtection: false,
  }
}

const hsts = (appUrl: string) =>
  appUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false

/**
 * What `secureHeadersOptions` makes Hono's `secureHeaders` set, as one record for the JSON answers
 * built with plain headers (a test holds the two equal).
 */
export function securityHeaderRecord(appUrl: string): Record<string, string> {
  const strictTransportSecurity = hsts(appUrl)
  return {
    'cross-origin-resource-policy': 'same-origin',
    'cross-origin-opener-policy': 'same-origin-allow-popups',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'strict-origin-when-cross-origin',
    ...(strictTransportSecurity && { 'strict-transport-security': strictTransportSecurity }),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'content-security-policy':
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
      "font-src 'self' data:; connect-src 'self'; frame-ancestors 'self'; base-uri 'self'; " +
      "form-action 'self'; object-src 'none'",
  }
}

const nothingMore = async () => {}

/**
 * The security headers on every answer: a JSON answer built with plain headers takes them from the
 * record (`plainAnswer`), any other from Hono's `secureHeaders`, run once the answer exists.
 */
export function securityHeaders(appUrl: string): MiddlewareHandler<AppEnv> {
  const record = securityHeaderRecord(appUrl)
  const onHeaders = secureHeaders(secureHeadersOptions(appUrl))
  return async (c, next) => {
    const answerHeaders = c.get('answerHeaders')
    if (answerHeaders) answerHeaders.last = record
    await next()
    if (!isCompleteAnswer(c.res)) await onHeaders(c, nothingMore)
  }
}

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * State-changing API requests must come from one of our origins (when the browser says where they
 * come from) and must send JSON. An opaque origin ("null": a sandboxed frame, a data: page) is not
 * ours. Provider callbacks posted by an identity provider are exempt.
 */
export function requireSameOriginJson(
  trustedOrigins: string[],
  exemptPrefixes: string[],
): MiddlewareHandler<AppEnv> {
  // Not async: a GET passes straight on, without a promise of this layer's own.
  return (c, next) => {
    if (safeMethods.has(c.req.method) || exemptPrefixes.some((prefix) => c.req.path.startsWith(prefix))) {
      return next()
    }
    const origin = c.req.header('origin')
    if (origin && !trustedOrigins.includes(origin)) {
      throw new AppError('forbidden', 'error.originRejected')
    }
    const hasBody =
      Number(c.req.header('content-length') ?? 0) > 0 || c.req.header('transfer-encoding') !== undefined
    const type = c.req.header('content-type') ?? ''
    if (hasBody && !/^application\/json\b/i.test(type)) throw new AppError('validation', 'error.jsonRequired')
    return next()
  }
}
