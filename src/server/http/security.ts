import type { MiddlewareHandler } from 'hono'
import { secureHeaders } from 'hono/secure-headers'
import { AppError } from '../../domain/errors.ts'
import type { AppEnv } from './env.ts'

/** CSP and friends (ASVS V3/V14). Styles allow inline attributes, which Radix uses for positioning. */
export function securityHeaders(appUrl: string): MiddlewareHandler {
  return secureHeaders({
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
    strictTransportSecurity: appUrl.startsWith('https://') ? 'max-age=31536000; includeSubDomains' : false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: 'same-origin',
    crossOriginOpenerPolicy: 'same-origin-allow-popups',
    xXssProtection: false,
  })
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
  return async (c, next) => {
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
