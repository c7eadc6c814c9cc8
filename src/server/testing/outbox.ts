import { fillPlaceholders, mailKeyOf, openSecret } from '../mail/sealing.ts'
import type { TestApp } from './test-app.ts'

/** A queued mail's text as its recipient will read it: the sealed secrets put back in. */
export function openedText(testApp: TestApp, text: string, secrets: readonly string[]): string {
  const key = mailKeyOf(testApp.config)
  return fillPlaceholders(text, (index) => openSecret(key, secrets[index] ?? ''))
}
