import type { Logger } from '../log.ts'

export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error'
  message: string
  fields: Record<string, unknown>
}

/** A logger that keeps every line (its children's too, with their fields) for a test to read. */
export function capturingLogger(): { log: Logger; lines: LogLine[] } {
  const lines: LogLine[] = []
  const make = (base: Record<string, unknown>): Logger => {
    const write = (level: LogLine['level']) => (message: string, fields?: Record<string, unknown>) => {
      lines.push({ level, message, fields: { ...base, ...fields } })
    }
    return {
      debug: write('debug'),
      info: write('info'),
      warn: write('warn'),
      error: write('error'),
      child: (fields) => make({ ...base, ...fields }),
      wants: () => true,
    }
  }
  return { log: make({}), lines }
}
