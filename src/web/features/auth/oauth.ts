import { authLibraryPaths } from '../../../domain/api/auth-addresses.ts'
import type { OAuthProvider } from '../../../domain/auth.ts'
import { OAUTH_POPUP } from '../../../domain/constants.ts'
import { ApiError, postToAuthLibrary } from '../../lib/api.ts'
import { isInFrame } from './frame.ts'
import { chooseOAuthStrategy, type OAuthStrategy, type PreviewSetting } from './oauth-strategy.ts'

export type { OAuthStrategy } from './oauth-strategy.ts'

const OAUTH_POPUP_NAME = 'promptfolio-oauth'
const RETURN_KEY = 'promptfolio.oauthReturn'
/** What the callback page in the popup posts to the window that opened it. */
const OAUTH_DONE_MESSAGE = 'PROMPTFOLIO_OAUTH_DONE'

/** The strategy for this page, given the server's hosted-preview setting (undefined while unknown). */
export function currentOAuthStrategy(preview: PreviewSetting | undefined): OAuthStrategy {
  return chooseOAuthStrategy({
    inFrame: isInFrame(),
    origin: window.location.origin,
    mobile: window.matchMedia('(pointer: coarse)').matches && window.matchMedia('(max-width: 768px)').matches,
    preview,
  })
}

export type OAuthFailure =
  | { kind: 'start'; message: string }
  | { kind: 'noUrl' }
  | { kind: 'popupBlocked' }
  | { kind: 'cancelled' }
  | { kind: 'timeout' }
  | { kind: 'unknownStrategy' }

/** Asks the server for the provider's authorization URL (its state is bound to this browser). */
async function authorizationUrl(provider: OAuthProvider): Promise<string | OAuthFailure> {
  try {
    const { url } = await postToAuthLibrary<{ url?: string }>(authLibraryPaths.socialSignIn, {
      provider,
      callbackURL: '/auth/callback',
      errorCallbackURL: '/auth/callback',
      newUserCallbackURL: '/auth/callback',
      disableRedirect: true,
    })
    return url ? url : { kind: 'noUrl' }
  } catch (error) {
    return { kind: 'start', message: error instanceof ApiError ? error.message : String(error) }
  }
}

/**
 * Runs a provider sign-in with the given strategy. Redirect strategies leave the page (the
 * callback page finishes); the popup resolves when the popup is gone: `hasSession` then decides.
 */
export async function signInWithProvider(
  provider: OAuthProvider,
  strategy: OAuthStrategy,
  hasSession: () => Promise<boolean>,
  returnTo: string,
): Promise<{ ok: true } | { ok: false; failure: OAuthFailure }> {
  // The popup must open in the click's own task, or the browser blocks it: open it first.
  const popup =
    strategy === 'popup'
      ? window.open(
          'about:blank',
          OAUTH_POPUP_NAME,
          `width=${OAUTH_POPUP.width},height=${OAUTH_POPUP.height},left=${Math.max(0, (window.screen.width - OAUTH_POPUP.width) / 2)},top=${Math.max(0, (window.screen.height - OAUTH_POPUP.height) / 2)}`,
        )
      : null
  if (strategy === 'popup' && !popup) return { ok: false, failure: { kind: 'popupBlocked' } }
  const url = await authorizationUrl(provider)
  if (typeof url !== 'string') {
    popup?.close()
    return { ok: false, failure: url }
  }
  switch (strategy) {
    case 'redirect':
    case 'same-window':
      if (strategy === 'same-window') sessionStorage.setItem(RETURN_KEY, returnTo)
      window.location.assign(url)
      return new Promise(() => {})
    case 'popup':
      popup!.location.href = url
      return watchPopup(popup!, hasSession)
    default:
      return { ok: false, failure: { kind: 'unknownStrategy' } }
  }
}

/** Checks every second whether the popup closed (or said it is done); gives up after 5 minutes. */
function watchPopup(
  popup: Window,
  hasSession: () => Promise<boolean>,
): Promise<{ ok: true } | { ok: false; failure: OAuthFailure }> {
  return new Promise((resolve) => {
    const started = Date.now()
    let settled = false
    const finish = async () => {
      if (settled) return
      settled = true
      clearInterval(timer)
      window.removeEventListener('message', onMessage)
      // Give the session cookie a moment to land before asking.
      await new Promise((wait) => setTimeout(wait, OAUTH_POPUP.pollMs))
      resolve((await hasSession()) ? { ok: true } : { ok: false, failure: { kind: 'cancelled' } })
    }
    const onMessage = (event: MessageEvent) => {
      if (event.origin === window.location.origin && event.data?.type === OAUTH_DONE_MESSAGE) void finish()
    }
    window.addEventListener('message', onMessage)
    const timer = setInterval(() => {
      if (popup.closed) {
        void finish()
        return
      }
      if (Date.now() - started >= OAUTH_POPUP.timeoutMs) {
        settled = true
        clearInterval(timer)
        window.removeEventListener('message', onMessage)
        popup.close()
        resolve({ ok: false, failure: { kind: 'timeout' } })
      }
    }, OAUTH_POPUP.pollMs)
  })
}

/** Where a same-window sign-in wanted to go afterwards (read once by the callback page). */
export function takeOAuthReturnPath(): string | null {
  const path = sessionStorage.getItem(RETURN_KEY)
  sessionStorage.removeItem(RETURN_KEY)
  return path?.startsWith('/') && !path.startsWith('//') ? path : null
}

/** In the popup: tell the opener the sign-in finished, so it need not wait for the close. */
export function notifyOpenerIfPopup(): boolean {
  if (window.name !== OAUTH_POPUP_NAME || !window.opener) return false
  try {
    ;(window.opener as Window).postMessage({ type: OAUTH_DONE_MESSAGE }, window.location.origin)
  } catch {
    // the opener navigated away; closing is all that is left
  }
  return true
}
