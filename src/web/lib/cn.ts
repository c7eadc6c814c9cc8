import { twMerge } from 'tailwind-merge'

/**
 * Joins class names, skipping falsy ones; of two Tailwind classes for the same property the later
 * one wins, so a component's `className` overrides its defaults (`cn('px-4', 'px-0')` is `px-0`).
 * Plain joining left the winner to the order of the generated stylesheet.
 */
export function cn(...classes: (string | false | null | undefined)[]): string {
  return twMerge(classes)
}
