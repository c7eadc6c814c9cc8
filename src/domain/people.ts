/** The first two letters of the email's local part ('alice@x.io' → 'al'), as the spec's avatars show. */
export function initialsOf(email: string): string {
  return (email.split('@')[0] ?? '').slice(0, 2) || '?'
}
