import { initialsOf } from '../../../domain/people.ts'

/** The spec's avatar: the first two letters of the email prefix. */
export function TeamAvatar({ email }: { email: string }) {
  return (
    <span
      aria-hidden
      className="flex size-9 shrink-0 items-center justify-center rounded-full bg-accent text-sm font-semibold text-accent-foreground uppercase"
    >
      {initialsOf(email)}
    </span>
  )
}
