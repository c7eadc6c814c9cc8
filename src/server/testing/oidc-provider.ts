import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { exportJWK, generateKeyPair } from 'jose'
import Provider, { interactionPolicy } from 'oidc-provider'

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1, standing in for
 * Google: the app is configured with GOOGLE_ISSUER = `issuer` and discovers the endpoints from it.
 * Its sign-in page asks only for an email address; the account's claims are that address
 * (verified) and a name derived from it. Used by the API tests and, as a process, by the e2e run.
 */
export class LocalOpenIdProvider {
  static readonly clientId = 'promptfolio-test-client'
  static readonly clientSecret = 'promptfolio-test-secret-0123456789'

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(options: { redirectUris: string[]; port?: number }): Promise<LocalOpenIdProvider> {
    let provider: Provider | undefined
    const server = createServer((req, res) => {
      if (!provider) {
        res.statusCode = 503
        res.end()
        return
      }
      void handle(provider, req, res).catch((error: Error) => {
        res.statusCode = 500
        res.end(error.message)
      })
    })
    await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const { privateKey } = await generateKeyPair('RS256', { extractable: true })
    const policy = interactionPolicy.base()
    // Google accepts prompt=select_account (the app sends it); the stand-in must too.
    policy.add(new interactionPolicy.Prompt({ name: 'select_account', requestable: true }))
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: LocalOpenIdProvider.clientId,
          client_secret: LocalOpenIdProvider.clientSecret,
          redirect_uris: options.redirectUris,
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      jwks: { keys: [{ ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: 'test-key' }] },
      cookies: { keys: ['local-openid-provider-cookie-key'] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      features: { devInteractions: { enabled: false } },
      interactions: { policy, url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx, id) => ({
        accountId: id,
        claims: () => ({ sub: id, email: id, email_verified: true, name: id.split('@')[0] }),
      }),
    })
    return new LocalOpenIdProvider(server, issuer)
  }

  /**
   * Walks the browser's part of a sign-in without a browser: follows `authorizeUrl`, signs in as
   * `email` and returns where the provider sends the user back (the app's callback with the code).
   */
  async signInAs(authorizeUrl: string, email: string): Promise<string> {
    const cookies = new Map<string, string>()
    const request = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: {
          ...(init.headers as Record<string, string>),
          cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      })
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = ''] = cookie.split(';')
        const index = pair.indexOf('=')
        cookies.set(pair.slice(0, index), pair.slice(index + 1))
      }
      return response
    }
    let response = await request(authorizeUrl)
    for (let hops = 0; hops < 10; hops++) {
      const location = response.headers.get('location')
      if (!location) throw new Error(`provider answered ${response.status} without a redirect`)
      const next = new URL(location, this.issuer)
      if (next.origin !== this.issuer) return next.toString()
      const interaction = next.pathname.match(/^\/interaction\/([^/]+)$/)
      response = interaction
        ? await request(`${next}/login`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ email }).toString(),
          })
        : await request(next.toString())
    }
    throw new Error('too many redirects at the provider')
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  let body = ''
  for await (const chunk of req) body += chunk
  return new URLSearchParams(body)
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

/** The provider's own endpoints, plus its sign-in page (an email field) and that form's handler. */
async function handle(provider: Provider, req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://local')
  const interaction = url.pathname.match(/^\/interaction\/([^/]+)(\/login)?$/)
  if (!interaction) return provider.callback()(req, res)
  const details = await provider.interactionDetails(req, res)
  if (req.method === 'GET' && !interaction[2]) {
    res.setHeader('content-type', 'text/html; charset=utf-8')
    res.end(`<!doctype html><html lang="en"><head><title>Local OpenID sign-in</title></head><body>
<h1>Sign in to the local OpenID provider</h1>
<form method="post" action="/interaction/${escapeHtml(details.uid)}/login">
<label>Email <input type="email" name="email" required autofocus></label>
<button type="submit">Continue</button>
</form></body></html>`)
    return
  }
  const email = (await readForm(req)).get('email')?.trim().toLowerCase() ?? ''
  if (!email) {
    res.statusCode = 400
    res.end('email required')
    return
  }
  const grant = new provider.Grant({ accountId: email, clientId: String(details.params.client_id) })
  grant.addOIDCScope(String(details.params.scope ?? 'openid'))
  const grantId = await grant.save()
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId: email }, consent: { grantId }, select_account: {} },
    { mergeWithLastSubmission: false },
  )
}
