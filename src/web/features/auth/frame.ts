/**
 * Whether the app runs inside a frame (a hosted preview, a page that embeds it): Google sign-in
 * then redirects instead of opening a popup, and an emailed reset link continues in a new tab.
 */
export function isInFrame(): boolean {
  try {
    return window.self !== window.top
  } catch {
    return true
  }
}
