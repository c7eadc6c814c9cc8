/**
 * How a provider sign-in opens the provider's page, by environment (the spec): a direct redirect
 * in a frame or a hosted preview, the same window on a phone (the return path kept for the
 * callback), a popup on a desktop otherwise. Pure, so that the choice is tested without a browser.
 */
export type OAuthStrategy = 'redirect' | 'same-window' | 'popup'

/** A hosted preview as the server describes it (`GET /v1/auth/providers`, APP_PREVIEW and PREVIEW_ORIGINS). */
export interface PreviewSetting {
  deployment: boolean
  origins: readonly string[]
}

export interface OAuthEnvironment {
  /** The page runs inside a frame (an embedding page, a preview shell). */
  inFrame: boolean
  /** The page's origin (`location.origin`). */
  origin: string
  /** A coarse pointer on a narrow screen: a phone. */
  mobile: boolean
  /** Unknown while the server has not answered: then no hosted preview is assumed. */
  preview: PreviewSetting | undefined
}

/** Is this page a hosted preview: the whole deployment is one, or its origin is listed? */
export function isHostedPreview(preview: PreviewSetting | undefined, origin: string): boolean {
  return preview !== undefined && (preview.deployment || preview.origins.includes(origin))
}

export function chooseOAuthStrategy(environment: OAuthEnvironment): OAuthStrategy {
  if (environment.inFrame || isHostedPreview(environment.preview, environment.origin)) return 'redirect'
  return environment.mobile ? 'same-window' : 'popup'
}
