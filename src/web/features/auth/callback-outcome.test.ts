import { describe, expect, it, vi } from 'vitest'
import { DELAYS_MS } from '../../../domain/constants.ts'
import {
  type CallbackEffects,
  classifyCallback,
  InvalidLinkError,
  providerErrorOutcome,
  recoveryOutcome,
  resolveCallback,
  signedInOutcome,
} from './callback-outcome.ts'

const url = (query: string) => new URLSearchParams(query)

function effects(overrides: Partial<CallbackEffects> = {}): CallbackEffects {
  return {
    verifyRecoveryToken: vi.fn(async () => {}),
    hasRecoverySession: vi.fn(async () => true),
    isSignedIn: vi.fn(async () => true),
    tellOpener: vi.fn(() => false),
    finishPopup: vi.fn(() => false),
    takeReturnPath: vi.fn(() => null),
    ...overrides,
  }
}

describe('classifyCallback', () => {
  it.each([
    ['?error=access_denied', 'provider-error'],
    ['?error_description=Denied', 'provider-error'],
    ['?token_hash=abc&type=recovery', 'recovery'],
    ['?token_hash=abc&type=signup', 'signed-in'],
    ['?code=xyz', 'signed-in'],
    ['', 'signed-in'],
  ])('%s is a %s case', (query, kind) => {
    expect(classifyCallback(url(query)).kind).toBe(kind)
  })

  it('keeps only a local next path, and reads the new-tab flag', () => {
    expect(classifyCallback(url('?token_hash=a&type=recovery&next=//evil.example&new_tab=true'))).toEqual({
      kind: 'recovery',
      tokenHash: 'a',
      next: '/prompts',
      newTab: true,
    })
  })
})

describe('providerErrorOutcome', () => {
  it("says 'Authentication failed: {reason}' and goes to /login after 3 s", () => {
    expect(providerErrorOutcome('access_denied', 'User said no')).toEqual({
      tone: 'error',
      title: 'callback.failedTitle',
      text: { key: 'callback.failed', params: { reason: 'User said no' } },
      next: { to: '/login', afterMs: DELAYS_MS.callbackError },
    })
  })

  it('explains a reason it knows', () => {
    expect(providerErrorOutcome('account_not_linked', null).text).toEqual({ key: 'callback.notLinked' })
  })
})

describe('recoveryOutcome', () => {
  const link = { tokenHash: 't', next: '/reset-password', newTab: false }

  it("goes to the next page after 1 s once the link's session exists", async () => {
    expect(await recoveryOutcome(link, effects())).toMatchObject({
      tone: 'success',
      title: 'callback.resetVerifiedTitle',
      next: { to: '/reset-password', afterMs: DELAYS_MS.callbackSuccess },
    })
  })

  it('tells the opener and closes the tab after 2 s in the new-tab flow', async () => {
    const tellOpener = vi.fn(() => true)
    const outcome = await recoveryOutcome({ ...link, newTab: true }, effects({ tellOpener }))
    expect(tellOpener).toHaveBeenCalledWith({
      type: 'SUPABASE_AUTH_SUCCESS',
      action: 'password_reset_verified',
      nextUrl: '/reset-password',
    })
    expect(outcome.next).toEqual({ close: true, afterMs: DELAYS_MS.tabClose })
  })

  it("shows a dead link's message as 'Reset Link Invalid' and sends to /forgot-password", async () => {
    const verifyRecoveryToken = vi.fn(async () => {
      throw new InvalidLinkError('This password reset link is invalid or has expired.')
    })
    expect(await recoveryOutcome(link, effects({ verifyRecoveryToken }))).toEqual({
      tone: 'error',
      title: 'callback.resetInvalidTitle',
      text: { message: 'This password reset link is invalid or has expired.' },
      next: { to: '/forgot-password', afterMs: DELAYS_MS.callbackError },
    })
  })

  it("says 'Reset Session Error' when the check fails or no session came of it", async () => {
    const failing = effects({ verifyRecoveryToken: vi.fn(async () => Promise.reject(new Error('offline'))) })
    expect((await recoveryOutcome(link, failing)).title).toBe('callback.resetSessionErrorTitle')
    const noSession = effects({ hasRecoverySession: vi.fn(async () => false) })
    expect((await recoveryOutcome(link, noSession)).title).toBe('callback.resetSessionErrorTitle')
  })
})

describe('signedInOutcome', () => {
  it('welcomes a signed-in user and goes where the sign-in started, else /prompts', async () => {
    expect((await signedInOutcome(true, effects()))?.next).toEqual({
      to: '/prompts',
      afterMs: DELAYS_MS.callbackSuccess,
    })
    const back = effects({ takeReturnPath: () => '/conversations' })
    expect((await signedInOutcome(false, back))?.next).toEqual({
      to: '/conversations',
      afterMs: DELAYS_MS.callbackSuccess,
    })
  })

  it("says 'Authentication Incomplete' without a session, and an error after 5 s when the check fails", async () => {
    const none = effects({ isSignedIn: vi.fn(async () => false) })
    expect(await signedInOutcome(true, none)).toMatchObject({
      title: 'callback.incompleteTitle',
      text: { key: 'callback.incomplete' },
    })
    const broken = effects({ isSignedIn: vi.fn(async () => Promise.reject(new Error('Network down'))) })
    expect(await signedInOutcome(true, broken)).toEqual({
      tone: 'error',
      title: 'callback.errorTitle',
      text: { message: 'Network down' },
      next: { to: '/login', afterMs: DELAYS_MS.callbackExchangeError },
    })
    expect((await signedInOutcome(false, broken))?.text).toEqual({ key: 'callback.notSignedIn' })
  })

  it('leaves a provider popup to close itself', async () => {
    expect(await signedInOutcome(true, effects({ finishPopup: () => true }))).toBeNull()
  })
})

it('resolveCallback runs the case the URL names', async () => {
  const all = effects()
  expect((await resolveCallback(url('?error=denied'), all))?.title).toBe('callback.failedTitle')
  expect((await resolveCallback(url('?token_hash=t&type=recovery'), all))?.title).toBe(
    'callback.resetVerifiedTitle',
  )
  expect(all.verifyRecoveryToken).toHaveBeenCalledWith('t')
  expect((await resolveCallback(url('?code=c'), all))?.title).toBe('callback.welcome')
})
