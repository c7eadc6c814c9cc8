type Level = 'debug' | 'info' | 'warn' | 'error'
const rank: Record<Level | 'silent', number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 }

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, fields?: Record<string, unknown>): void
  child(fields: Record<string, unknown>): Logger
}

/** Structured logs: one JSON object per line, errors reduced to name, message and stack. */
export function createLogger(minLevel: Level | 'silent', base: Record<string, unknown> = {}): Logger {
  const write = (level: Level, message: string, fields?: Record<string, unknown>) => {
    if (rank[level] < rank[minLevel]) return
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, msg: message, ...base }
    for (const [key, value] of Object.entries(fields ?? {})) {
      entry[key] =
        value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value
    }
    const line = `${JSON.stringify(entry)}\n`
    if (level === 'error' || level === 'warn') process.stderr.write(line)
    else process.stdout.write(line)
  }
  return {
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (fields) => createLogger(minLevel, { ...base, ...fields }),
  }
}
