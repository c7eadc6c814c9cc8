/**
 * The cross-window message: the tab that verified a reset link (opened from a framed
 * forgot-password page) tells its opener where to continue.
 */
export const AUTH_SUCCESS_MESSAGE = 'SUPABASE_AUTH_SUCCESS'

export interface AuthSuccessMessage {
  type: typeof AUTH_SUCCESS_MESSAGE
  action: 'password_reset_verified'
  nextUrl: string
}

export function isAuthSuccessMessage(data: unknown): data is AuthSuccessMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { type?: unknown }).type === AUTH_SUCCESS_MESSAGE &&
    (data as { action?: unknown }).action === 'password_reset_verified'
  )
}
