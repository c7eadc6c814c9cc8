import { DEFAULT_POST_AUTH_PATH } from './constants.ts'

/** Longest path a sign-in carries on to: an invitation link with its query fits many times over. */
export const NEXT_PATH_MAX = 512

/**
 * Whether `next` is a path on this site to continue at after signing in. Only a relative path
 * that starts with one '/' qualifies: '//host' and '/\host' are other sites to a browser, and
 * control characters or whitespace could change how a link in a mail is read.
 */
export function isSafeNextPath(next: string | null | undefined): next is string {
  if (!next || next.length > NEXT_PATH_MAX) return false
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return false
  return !/[\p{Cc}\s\\]/u.test(next)
}

/** A same-origin path to continue at; anything else (absolute, protocol-relative) falls back. */
export function safeNextPath(next: string | null | undefined, fallback = DEFAULT_POST_AUTH_PATH): string {
  return isSafeNextPath(next) ? next : fallback
}
