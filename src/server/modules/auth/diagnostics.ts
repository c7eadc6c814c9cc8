import type { authOperations } from '../../../domain/api/auth.ts'
import type { AuthDiagnostics, DiagnosticCheck } from '../../../domain/auth.ts'
import { SESSION_ABSOLUTE_SECONDS } from '../../../domain/constants.ts'
import { AppError } from '../../../domain/errors.ts'
import type { Auth } from '../../auth/auth.ts'
import type { Config } from '../../config.ts'
import type { Database } from '../../db/client.ts'
import { headersForAuth } from '../../http/client-address.ts'
import type { Handlers } from '../../http/operations.ts'
import { countFailedSignIns } from './failed-sign-ins.ts'

const CHECK_TIMEOUT_MS = 5000

async function timedCheck(run: () => Promise<unknown>): Promise<DiagnosticCheck> {
  const start = performance.now()
  try {
    await run()
    return { ok: true, latencyMs: Math.round(performance.now() - start) }
  } catch (error) {
    return { ok: false, latencyMs: null, error: error instanceof Error ? error.message : String(error) }
  }
}

/** Fetches the issuer's discovery document and checks that it names the issuer and its endpoints. */
async function checkDiscovery(issuer: string) {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
  })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  const doc = (await res.json()) as {
    issuer?: string
    authorization_endpoint?: string
    token_endpoint?: string
  }
  if (doc.issuer !== issuer || !doc.authorization_endpoint || !doc.token_endpoint) {
    throw new Error('the discovery document does not match the issuer')
  }
}

/**
 * `/auth/diagnostics` (global admins): live checks for the debug pages — database round trip, this
 * session, Google's discovery document, the SMTP connection, failed sign-ins of the last day.
 */
export function authDiagnosticsHandler(deps: {
  auth: Auth
  database: Database
  config: Pick<Config, 'appUrl' | 'google' | 'apple' | 'smtpUrl' | 'mailFrom'>
}): Handlers<typeof authOperations>['diagnostics'] {
  const { auth, database, config } = deps
  return async ({ c }) => {
    const current = await auth.api.getSession({ headers: headersForAuth(c) })
    if (!current) throw new AppError('not_authenticated')
    const { session } = current
    const [db, discovery, smtp, failed] = await Promise.all([
      timedCheck(() => database.ping()),
      config.google ? timedCheck(() => checkDiscovery(config.google!.issuer)) : null,
      // nodemailer is loaded when needed (not at start), before the check's clock starts.
      config.smtpUrl
        ? import('nodemailer').then(({ default: nodemailer }) =>
            timedCheck(async () => {
              const transport = nodemailer.createTransport({
                url: config.smtpUrl,
                connectionTimeout: CHECK_TIMEOUT_MS,
                greetingTimeout: CHECK_TIMEOUT_MS,
              })
              try {
                await transport.verify()
              } finally {
                transport.close()
              }
            }),
          )
        : null,
      countFailedSignIns(database.db, new Date(Date.now() - 24 * 60 * 60 * 1000)),
    ])
    return {
      checkedAt: new Date().toISOString(),
      database: { kind: database.kind, ...db },
      session: {
        id: session.id,
        createdAt: session.createdAt.toISOString(),
        expiresAt: session.expiresAt.toISOString(),
        absoluteExpiresAt: new Date(
          session.createdAt.getTime() + SESSION_ABSOLUTE_SECONDS * 1000,
        ).toISOString(),
        ipAddress: session.ipAddress ?? null,
        userAgent: session.userAgent ?? null,
      },
      google: {
        configured: config.google !== undefined,
        issuer: config.google?.issuer ?? null,
        callbackUrl: `${config.appUrl}/api/auth/callback/google`,
        discovery,
      },
      apple: {
        configured: config.apple !== undefined,
        callbackUrl: `${config.appUrl}/api/auth/callback/apple`,
      },
      smtp: { configured: config.smtpUrl !== undefined, from: config.mailFrom, connection: smtp },
      failedSignInsLast24h: failed,
    } satisfies AuthDiagnostics
  }
}
