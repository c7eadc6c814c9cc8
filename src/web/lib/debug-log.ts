import { DEBUG_LOG_ENTRIES } from '../../domain/constants.ts'

/**
 * The client's debug log (the spec: "Debug logger keeps last 100 entries"): what went wrong in this
 * tab (failed API calls, error toasts, uncaught errors), in memory only, the last 100 entries, so a
 * user can copy it into a support request from the diagnostics pages. Everything written is
 * redacted first: tokens, keys, codes and passwords never reach it.
 */

const debugLevels = ['debug', 'info', 'warn', 'error'] as const
export type DebugLevel = (typeof debugLevels)[number]

interface DebugEntry {
  /** Counts up through the page's life: a key for lists. */
  id: number
  /** ISO time of the entry. */
  at: string
  level: DebugLevel
  message: string
}

/** A fixed-size buffer: the newest `capacity` items, oldest first; pushing beyond drops the oldest. */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[]
  private start = 0
  private count = 0

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError('capacity must be a positive integer')
    this.items = new Array(capacity)
  }

  get size(): number {
    return this.count
  }

  push(item: T): void {
    if (this.count < this.capacity) {
      this.items[(this.start + this.count) % this.capacity] = item
      this.count++
      return
    }
    this.items[this.start] = item
    this.start = (this.start + 1) % this.capacity
  }

  toArray(): T[] {
    const out: T[] = []
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T)
    return out
  }

  clear(): void {
    this.items.fill(undefined)
    this.start = 0
    this.count = 0
  }
}

const REDACTED = '[redacted]'

/** Names whose values are secrets wherever they appear: a JSON field, a header, a parameter. */
const SECRET_NAMES =
  'password|passwd|current_?password|new_?password|secret|secret_?key|client_?secret|token|token_?hash|access_?token|refresh_?token|id_?token|api_?key|apikey|authorization|cookie|otp'
/** In a URL or form also these: an OAuth code and state, a sign-in code, a session id. */
const PARAMETER_NAMES = `${SECRET_NAMES}|code|state|session|session_?id`

const patterns: [RegExp, string][] = [
  // "name": "value" and name: value in JSON, headers and messages (a header's scheme included).
  [
    new RegExp(`("?\\b(?:${SECRET_NAMES})"?\\s*:\\s*)("[^"]*"|(?:Bearer|Basic)\\s+\\S+|[^\\s,;}]+)`, 'gi'),
    `$1${REDACTED}`,
  ],
  // Authorization schemes with their credential.
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  // Our API keys (`sk-…`, `pk-…`) and Langfuse-style ones (`sk-lf-…`).
  [/\b(sk|pk)-[A-Za-z0-9_-]{6,}/g, `$1-${REDACTED}`],
  // JSON web tokens.
  [/\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED],
  // name=value in URLs and forms.
  [new RegExp(`((?:^|[?&#;\\s])(?:${PARAMETER_NAMES})=)[^&#\\s]+`, 'gi'), `$1${REDACTED}`],
  // Invitation and reset links carry their token in the path.
  [/(\/(?:invite|invitations|reset|confirm)\/)[A-Za-z0-9_-]{16,}/gi, `$1${REDACTED}`],
  // Any other long random-looking run (session tokens, hashes): 32+ base64url characters, but
  // not a uuid (the ids of teams, prompts and conversations tell support where it happened).
  [
    /(?<![A-Za-z0-9_-])(?![0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9_-]))[A-Za-z0-9_-]{32,}/gi,
    REDACTED,
  ],
]

/** `text` with every token, key, password and code it recognises replaced by `[redacted]`. */
export function redact(text: string): string {
  let out = text
  for (const [pattern, replacement] of patterns) out = out.replace(pattern, replacement)
  return out
}

/** One line per entry, the message cut to this many characters: a log, not a dump. */
const MESSAGE_MAX = 500

const buffer = new RingBuffer<DebugEntry>(DEBUG_LOG_ENTRIES)
let snapshot: readonly DebugEntry[] = []
const listeners = new Set<() => void>()
let sequence = 0

function write(level: DebugLevel, message: string) {
  const text = redact(message).slice(0, MESSAGE_MAX)
  sequence++
  buffer.push({ id: sequence, at: new Date().toISOString(), level, message: text })
  snapshot = buffer.toArray()
  for (const listener of listeners) listener()
}

export const debugLog = {
  debug: (message: string) => write('debug', message),
  info: (message: string) => write('info', message),
  warn: (message: string) => write('warn', message),
  error: (message: string) => write('error', message),
  /** The entries, oldest first (the same array until the next write: fit for useSyncExternalStore). */
  entries: (): readonly DebugEntry[] => snapshot,
  subscribe(listener: () => void): () => void {
    listeners.add(listener)
    return () => listeners.delete(listener)
  },
  clear() {
    buffer.clear()
    snapshot = []
    for (const listener of listeners) listener()
  },
}

/** The log as text for a support request: a header line, then one line per entry. */
export function debugLogText(
  entries: readonly DebugEntry[],
  about: { now: Date; page: string; agent: string },
): string {
  const header = `Promptfolio debug log, ${about.now.toISOString()}, ${redact(about.page)}, ${about.agent}`
  return [
    header,
    ...entries.map((entry) => `${entry.at} ${entry.level.toUpperCase()} ${entry.message}`),
  ].join('\n')
}

/** The text of an error of any kind (an Error, a rejection's reason, a string). */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`
  return typeof error === 'string' ? error : String(error)
}

let installed = false

/** Logs uncaught errors and unhandled rejections of this page (once per page). */
export function captureUncaughtErrors(target: Window = window): void {
  if (installed) return
  installed = true
  target.addEventListener('error', (event) => {
    const where = event.filename ? ` (${event.filename}:${event.lineno})` : ''
    debugLog.error(`Uncaught ${describeError(event.error ?? event.message)}${where}`)
  })
  target.addEventListener('unhandledrejection', (event) => {
    debugLog.error(`Unhandled rejection: ${describeError(event.reason)}`)
  })
}
