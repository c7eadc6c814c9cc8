import { DEFAULT_POST_AUTH_PATH, DELAYS_MS } from '../../../domain/constants.ts'
import { safeNextPath } from '../../../domain/next-path.ts'
import { AUTH_SUCCESS_MESSAGE, type AuthSuccessMessage } from './recovery-messages.ts'

/**
 * What /auth/callback and /auth/confirm do, as pure steps: which case the URL is (a provider's
 * error, a recovery link, a finished sign-in, nothing), and the outcome of each — what to say and
 * where to go after how long. The page runs them with the browser's effects; the tests with fakes.
 */
type CallbackTextKey =
  | 'callback.working'
  | 'callback.leavingFrame'
  | 'callback.failed'
  | 'callback.notLinked'
  | 'callback.resetSessionError'
  | 'callback.resetVerified'
  | 'callback.resetVerifiedNewTab'
  | 'callback.welcomeText'
  | 'callback.signedIn'
  | 'callback.incomplete'
  | 'callback.notSignedIn'

type CallbackTitleKey =
  | 'callback.failedTitle'
  | 'callback.resetInvalidTitle'
  | 'callback.resetSessionErrorTitle'
  | 'callback.resetVerifiedTitle'
  | 'callback.welcome'
  | 'callback.errorTitle'
  | 'callback.incompleteTitle'

export interface Outcome {
  tone: 'working' | 'success' | 'error'
  /** Absent while working: the page's own title. */
  title?: CallbackTitleKey
  /** A catalog text, or the server's message as it came. */
  text: { key: CallbackTextKey; params?: Record<string, string> } | { message: string }
  /** Where to go, and after how long; `close` closes the tab instead. */
  next?: { to: string; afterMs: number } | { close: true; afterMs: number }
}

/** The effects the outcomes need, given by the page (the browser) or by a test. */
export interface CallbackEffects {
  /** Trades a recovery link's token for a reset session; rejects with `invalid` for a dead link. */
  verifyRecoveryToken(tokenHash: string): Promise<void>
  /** Whether the reset session exists now. */
  hasRecoverySession(): Promise<boolean>
  /** Whether a session exists; rejects with the reason when the check fails. */
  isSignedIn(): Promise<boolean>
  /** Tells the window that opened this tab that the link was verified; false when there is none. */
  tellOpener(message: AuthSuccessMessage): boolean
  /** In a provider sign-in popup: tells the opener and answers true (the page then closes). */
  finishPopup(): boolean
  /** Where a same-window provider sign-in started from, if it stored one. */
  takeReturnPath(): string | null
}

/** A recovery link that is dead (used, expired, unknown): the server's message is shown as is. */
export class InvalidLinkError extends Error {}

/** Reasons a provider puts in `?error=` that deserve more than the raw code. */
const knownReasons: Record<string, CallbackTextKey> = { account_not_linked: 'callback.notLinked' }

const toLogin = (afterMs: number) => ({ to: '/login', afterMs })
const toForgotPassword = { to: '/forgot-password', afterMs: DELAYS_MS.callbackError }

type CallbackCase =
  | { kind: 'provider-error'; code: string; description: string | null }
  | { kind: 'recovery'; tokenHash: string; next: string; newTab: boolean }
  | { kind: 'signed-in'; withCredentials: boolean }

/** Which of the callback's cases the URL's parameters are. */
export function classifyCallback(params: URLSearchParams): CallbackCase {
  const error = params.get('error') ?? params.get('error_description')
  if (error) return { kind: 'provider-error', code: error, description: params.get('error_description') }
  const tokenHash = params.get('token_hash')
  if (tokenHash && params.get('type') === 'recovery') {
    return {
      kind: 'recovery',
      tokenHash,
      next: safeNextPath(params.get('next')),
      newTab: params.get('new_tab') === 'true',
    }
  }
  return { kind: 'signed-in', withCredentials: params.has('code') || params.has('access_token') }
}

export function providerErrorOutcome(code: string, description: string | null): Outcome {
  const known = knownReasons[code]
  return {
    tone: 'error',
    title: 'callback.failedTitle',
    text: known ? { key: known } : { key: 'callback.failed', params: { reason: description ?? code } },
    next: toLogin(DELAYS_MS.callbackError),
  }
}

export async function recoveryOutcome(
  link: { tokenHash: string; next: string; newTab: boolean },
  effects: Pick<CallbackEffects, 'verifyRecoveryToken' | 'hasRecoverySession' | 'tellOpener'>,
): Promise<Outcome> {
  try {
    await effects.verifyRecoveryToken(link.tokenHash)
  } catch (error) {
    return error instanceof InvalidLinkError
      ? {
          tone: 'error',
          title: 'callback.resetInvalidTitle',
          text: { message: error.message },
          next: toForgotPassword,
        }
      : {
          tone: 'error',
          title: 'callback.resetSessionErrorTitle',
          text: { key: 'callback.resetSessionError' },
          next: toForgotPassword,
        }
  }
  if (!(await effects.hasRecoverySession().catch(() => false))) {
    return {
      tone: 'error',
      title: 'callback.resetSessionErrorTitle',
      text: { key: 'callback.resetSessionError' },
      next: toForgotPassword,
    }
  }
  const told =
    link.newTab &&
    effects.tellOpener({ type: AUTH_SUCCESS_MESSAGE, action: 'password_reset_verified', nextUrl: link.next })
  return told
    ? {
        tone: 'success',
        title: 'callback.resetVerifiedTitle',
        text: { key: 'callback.resetVerifiedNewTab' },
        next: { close: true, afterMs: DELAYS_MS.tabClose },
      }
    : {
        tone: 'success',
        title: 'callback.resetVerifiedTitle',
        text: { key: 'callback.resetVerified' },
        next: { to: link.next, afterMs: DELAYS_MS.callbackSuccess },
      }
}

/**
 * A sign-in came back (a code or token in the URL), or the page was opened without parameters:
 * signed in goes on to where the sign-in started (default /prompts), anything else to /login.
 * Returns null in a provider popup, which the page closes instead.
 */
export async function signedInOutcome(
  withCredentials: boolean,
  effects: Pick<CallbackEffects, 'isSignedIn' | 'finishPopup' | 'takeReturnPath'>,
): Promise<Outcome | null> {
  if (effects.finishPopup()) return null
  const destination = effects.takeReturnPath() ?? DEFAULT_POST_AUTH_PATH
  let signedIn: boolean
  try {
    signedIn = await effects.isSignedIn()
  } catch (error) {
    if (!withCredentials) signedIn = false
    else {
      return {
        tone: 'error',
        title: 'callback.errorTitle',
        text: { message: error instanceof Error ? error.message : String(error) },
        next: toLogin(DELAYS_MS.callbackExchangeError),
      }
    }
  }
  if (signedIn) {
    return {
      tone: 'success',
      title: 'callback.welcome',
      text: { key: withCredentials ? 'callback.welcomeText' : 'callback.signedIn' },
      next: { to: destination, afterMs: DELAYS_MS.callbackSuccess },
    }
  }
  return {
    tone: 'error',
    title: 'callback.incompleteTitle',
    text: { key: withCredentials ? 'callback.incomplete' : 'callback.notSignedIn' },
    next: toLogin(DELAYS_MS.callbackError),
  }
}

/** The outcome of a callback URL, from its case. */
export function resolveCallback(params: URLSearchParams, effects: CallbackEffects): Promise<Outcome | null> {
  const found = classifyCallback(params)
  switch (found.kind) {
    case 'provider-error':
      return Promise.resolve(providerErrorOutcome(found.code, found.description))
    case 'recovery':
      return recoveryOutcome(found, effects)
    case 'signed-in':
      return signedInOutcome(found.withCredentials, effects)
  }
}
