import { describe, expect, it } from 'vitest'
import { chooseOAuthStrategy, isHostedPreview, type OAuthEnvironment } from './oauth-strategy.ts'

const desktop: OAuthEnvironment = {
  inFrame: false,
  origin: 'https://app.example.com',
  mobile: false,
  preview: { deployment: false, origins: [] },
}

describe('chooseOAuthStrategy', () => {
  it('opens a popup on a desktop outside frames and previews', () => {
    expect(chooseOAuthStrategy(desktop)).toBe('popup')
  })

  it('uses the same window on a phone', () => {
    expect(chooseOAuthStrategy({ ...desktop, mobile: true })).toBe('same-window')
  })

  it('redirects inside a frame, on a desktop and on a phone', () => {
    expect(chooseOAuthStrategy({ ...desktop, inFrame: true })).toBe('redirect')
    expect(chooseOAuthStrategy({ ...desktop, inFrame: true, mobile: true })).toBe('redirect')
  })

  it('redirects in a hosted preview deployment (APP_PREVIEW=1), on a desktop and on a phone', () => {
    const preview = { deployment: true, origins: [] }
    expect(chooseOAuthStrategy({ ...desktop, preview })).toBe('redirect')
    expect(chooseOAuthStrategy({ ...desktop, preview, mobile: true })).toBe('redirect')
  })

  it('redirects on a page whose origin is listed in PREVIEW_ORIGINS, and only there', () => {
    const preview = { deployment: false, origins: ['https://pr-7.preview.example.com'] }
    expect(chooseOAuthStrategy({ ...desktop, preview, origin: 'https://pr-7.preview.example.com' })).toBe(
      'redirect',
    )
    expect(chooseOAuthStrategy({ ...desktop, preview })).toBe('popup')
    // An origin is compared whole: not a prefix, not another port or scheme.
    for (const origin of [
      'https://pr-7.preview.example.com.evil.test',
      'https://pr-7.preview.example.com:8443',
      'http://pr-7.preview.example.com',
    ]) {
      expect(chooseOAuthStrategy({ ...desktop, preview, origin })).toBe('popup')
    }
  })

  it('assumes no preview while the server has not said', () => {
    expect(isHostedPreview(undefined, desktop.origin)).toBe(false)
    expect(chooseOAuthStrategy({ ...desktop, preview: undefined })).toBe('popup')
  })
})
