import { sourceMappedStack } from './stack-trace.ts'

type Level = 'debug' | 'info' | 'warn' | 'error'
const rank: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
  child(fields: Record<string, unknown>): Logger
  /** Whether lines of `level` are written (so that a caller can skip building them). */
  wants(level: Level): boolean
}

/**
 * Info and debug lines wait for the end of the event loop's turn and go out in one write: writing
 * to a pipe or a file is synchronous in Node, so one write per request line cost a system call on
 * the hot path. Warnings and errors go out at once; 'exit' flushes what waits.
 */
let waiting: string[] = []
function writeSoon(line: string): void {
  if (waiting.length === 0) setImmediate(flushLogs)
  waiting.push(line)
}
function flushLogs(): void {
  if (waiting.length === 0) return
  const lines = waiting.join('')
  waiting = []
  process.stdout.write(lines)
}
process.on('exit', flushLogs)

/**
 * A failed query's error (drizzle's, which the auth library logs too) ends its message with the
 * query's parameters: session tokens, addresses, codes' hashes. They never reach the log.
 */
export function redactQueryParams(text: string): string {
  return text.replace(/(\nparams: )[\s\S]*?(?=\n {4}at |$)/g, '$1[redacted]')
}

/**
 * An error as logged: name, message and stack without query parameters, the database's error code
 * (e.g. 40P01 for a deadlock) and its cause, which says why a wrapped query failed.
 */
function loggedError(error: Error, depth = 0): Record<string, unknown> {
  const code = (error as { code?: unknown }).code
  return {
    name: error.name,
    message: redactQueryParams(error.message),
    code: typeof code === 'string' ? code : undefined,
    // Redacted first: the mapper then never reads a query's parameters.
    stack:
      error.stack === undefined
        ? undefined
        : sourceMappedStack(redactQueryParams(error.stack), redactQueryParams(error.message)),
    cause: error.cause instanceof Error && depth < 3 ? loggedError(error.cause, depth + 1) : undefined,
  }
}

/**
 * Structured logs: one JSON object per line, errors reduced by `loggedError`. A class, not a record
 * of closures: every request takes a child (its request id), which is then one object.
 */
class StructuredLogger implements Logger {
  constructor(
    private readonly minRank: number,
    private readonly base: Record<string, unknown>,
    /** A child's own fields, merged with `base` only when a line is written. */
    private readonly own?: Record<string, unknown>,
  ) {}

  wants(level: Level): boolean {
    return rank[level] >= this.minRank
  }

  debug(message: string, fields?: Record<string, unknown>): void {
    this.write('debug', message, fields)
  }

  info(message: string, fields?: Record<string, unknown>): void {
    this.write('info', message, fields)
  }

  warn(message: string, fields?: Record<string, unknown>): void {
    this.write('warn', message, fields)
  }

  error(message: string, fields?: Record<string, unknown>): void {
    this.write('error', message, fields)
  }

  child(fields: Record<string, unknown>): Logger {
    // Every request takes a child and most write no line: merging the fields at once was about
    // 2 µs of a request's server CPU (`npm run bench:ab`).
    return new StructuredLogger(this.minRank, this.own ? { ...this.base, ...this.own } : this.base, fields)
  }

  private write(level: Level, message: string, fields?: Record<string, unknown>): void {
    if (rank[level] < this.minRank) return
    const entry: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      msg: message,
      ...this.base,
      ...this.own,
    }
    for (const [key, value] of Object.entries(fields ?? {})) {
      entry[key] = value instanceof Error ? loggedError(value) : value
    }
    const line = `${JSON.stringify(entry)}\n`
    if (level === 'error' || level === 'warn') process.stderr.write(line)
    else writeSoon(line)
  }
}

export function createLogger(minLevel: Level | 'silent', base: Record<string, unknown> = {}): Logger {
  return new StructuredLogger(rank[minLevel], base)
}
