// The e2e run's stand-in for Google (started by playwright.config.ts before the app): a real
// OpenID provider on 127.0.0.1:$E2E_OIDC_PORT; the app's GOOGLE_ISSUER points at it. Its sign-in
// page asks for an email address ("Email", "Continue") and signs in as that address.
import { LocalOpenIdProvider } from '../../src/server/testing/oidc-provider.ts'

const provider = await LocalOpenIdProvider.start({
  port: Number(process.env.E2E_OIDC_PORT),
  // Both app servers of the run (playwright.config.ts): the main one and the hosted preview.
  redirectUris: (process.env.E2E_APP_URLS ?? '').split(',').map((url) => `${url}/api/auth/callback/google`),
})
const stop = () => void provider.close().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
