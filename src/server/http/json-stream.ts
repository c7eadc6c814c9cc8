/**
 * An incremental JSON parser: fed the bytes of a document in pieces cut anywhere, it builds the
 * same value `JSON.parse` builds from their UTF-8 text, except that the elements of an array the
 * caller picks (by its path) are handed over one by one as each completes and not kept. An import
 * of a whole space so holds one prompt of its file at a time, never the file's text or tree.
 * Iterative (its stack is an array), so nesting is limited by memory only, as with `JSON.parse`.
 */

/** Keys and indexes from the document's root to a value. */
export type JsonPath = readonly (string | number)[]

/** The bytes are not one JSON document; `offset` is where that became certain. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly offset: number,
    what: string,
  ) {
    super(`${what} at byte ${offset}`)
    this.name = 'JsonSyntaxError'
  }
}

export interface JsonStreamOptions {
  /** Where the array is whose elements are handed over one by one (each array there, if a key repeats). */
  streamAt?: JsonPath
  /** A streamed array began: what goes in its place in the document (`parent[key]`, or the root). */
  onStreamStart?: (parent: Record<string, unknown> | unknown[] | null, key: string | number) => unknown
  /** An element of a streamed array, complete. */
  onElement?: (value: unknown, index: number) => void
}

type Container = Record<string, unknown> | unknown[]

interface Frame {
  /** The container being built; null for a streamed array. */
  value: Container | null
  isArray: boolean
  /** The object's key whose value comes next. */
  key: string
  /** Elements seen of an array. */
  count: number
  /** Where the container sits in its parent: the parent's key or index. */
  at: string | number
}

enum State {
  /** A value must come (at the root, after `:` or after `,` in an array). */
  Value,
  /** After `[`: a value or `]`. */
  ValueOrClose,
  /** After `{`: a key or `}`. */
  KeyOrClose,
  /** After `,` in an object. */
  Key,
  Colon,
  /** After a value in a container. */
  CommaOrClose,
  /** After the root value: only whitespace. */
  Done,
  String,
  Number,
  Literal,
}

const QUOTE = 0x22
const BACKSLASH = 0x5c
const BOM = [0xef, 0xbb, 0xbf]
const LITERALS: Record<number, { text: string; value: unknown }> = {
  116: { text: 'true', value: true },
  102: { text: 'false', value: false },
  110: { text: 'null', value: null },
}
const ESCAPES: Record<number, string> = {
  34: '"',
  92: '\\',
  47: '/',
  98: '\b',
  102: '\f',
  110: '\n',
  114: '\r',
  116: '\t',
}
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/
const decoder = new TextDecoder()

const isWhitespace = (byte: number) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09
const isNumberByte = (byte: number) =>
  (byte >= 0x30 && byte <= 0x39) ||
  byte === 0x2d ||
  byte === 0x2b ||
  byte === 0x2e ||
  byte === 0x65 ||
  byte === 0x45

/** Assigns as `JSON.parse` does: `__proto__` becomes an own property, not the prototype. */
function setMember(object: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
  } else object[key] = value
}

export class JsonStreamParser {
  private state = State.Value
  private readonly stack: Frame[] = []
  private root: unknown
  /** Bytes seen before the current piece. */
  private offset = 0
  /** Bytes of a leading byte order mark matched so far (-1 once past it). */
  private bom = 0
  private bomBytes = 0
  // A string under way: its text so far, bytes of the current piece not yet decoded (from
  // `runStart`), bytes carried from earlier pieces (a UTF-8 sequence may be cut), an escape.
  private text = ''
  private carried: Uint8Array[] = []
  private escape: string | null = null
  private stringIsKey = false
  // A number or literal under way.
  private token = ''
  private literal: { text: string; value: unknown } | null = null

  constructor(private readonly options: JsonStreamOptions = {}) {}

  /** Bytes seen so far. */
  get bytes(): number {
    return this.offset
  }

  /** No text came (a byte order mark aside): the body `''` that the HTTP layer reads as `{}`. */
  get empty(): boolean {
    return this.offset === this.bomBytes && this.bom <= 0
  }

  write(piece: Uint8Array): void {
    let i = 0
    const length = piece.length
    if (this.bom >= 0) {
      while (i < length && this.bom < 3 && piece[i] === BOM[this.bom]) {
        i++
        this.bom++
      }
      if (this.bom === 3) {
        this.bom = -1
        this.bomBytes = 3
      } else if (i < length) {
        // A partial mark is text after all: `JSON.parse` would have seen its bytes (refused below).
        if (this.bom > 0) this.fail(0, 'unexpected byte')
        this.bom = -1
      }
    }
    let runStart = this.state === State.String && this.escape === null ? i : -1
    for (; i < length; i++) {
      const byte = piece[i]!
      switch (this.state) {
        case State.String: {
          if (this.escape !== null) {
            if (this.escape === '') {
              const simple = ESCAPES[byte]
              if (simple !== undefined) {
                this.text += simple
                this.escape = null
                runStart = i + 1
              } else if (byte === 0x75) this.escape = 'u'
              else this.fail(i, 'bad escape')
            } else {
              const isHex = (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x66)
              if (!isHex) this.fail(i, 'bad unicode escape')
              this.escape += String.fromCharCode(byte)
              if (this.escape.length === 5) {
                this.text += String.fromCharCode(Number.parseInt(this.escape.slice(1), 16))
                this.escape = null
                runStart = i + 1
              }
            }
            continue
          }
          // The common case, scanned without leaving the loop: bytes up to a quote or backslash.
          while (i < length) {
            const next = piece[i]!
            if (next === QUOTE || next === BACKSLASH) break
            if (next < 0x20) this.fail(i, 'control character in string')
            i++
          }
          if (i === length) break
          this.decodeRun(piece, runStart, i)
          runStart = -1
          if (piece[i] === BACKSLASH) {
            this.escape = ''
            continue
          }
          const text = this.text
          this.text = ''
          if (this.stringIsKey) {
            this.stack.at(-1)!.key = text
            this.state = State.Colon
          } else this.completed(text)
          continue
        }
        case State.Number: {
          if (isNumberByte(byte)) {
            this.token += String.fromCharCode(byte)
            continue
          }
          this.endNumber(i)
          i-- // the byte after the number is read in the state the number left
          continue
        }
        case State.Literal: {
          const literal = this.literal!
          if (byte !== literal.text.charCodeAt(this.token.length)) this.fail(i, 'unexpected byte')
          this.token += String.fromCharCode(byte)
          if (this.token.length === literal.text.length) {
            this.literal = null
            this.completed(literal.value)
          }
          continue
        }
        default:
          if (isWhitespace(byte)) continue
          this.structural(byte, i)
          if ((this.state as State) === State.String) runStart = i + 1
      }
    }
    if (this.state === State.String && this.escape === null && runStart >= 0 && runStart < length) {
      // The rest of a string continues in the next piece; a UTF-8 sequence may be cut: keep bytes.
      this.carried.push(piece.slice(runStart))
    }
    this.offset += length
  }

  /** The document's value, once every byte was written (streamed arrays hold what `onStreamStart` put). */
  end(): unknown {
    if (this.state === State.Number) this.endNumber(0)
    if (this.state !== State.Done) this.fail(0, this.offset === 0 ? 'empty document' : 'unexpected end')
    return this.root
  }

  private fail(at: number, what: string): never {
    throw new JsonSyntaxError(this.offset + at, what)
  }

  private decodeRun(piece: Uint8Array, start: number, end: number): void {
    const run = start >= 0 && end > start ? piece.subarray(start, end) : null
    if (this.carried.length === 0) {
      if (run) this.text += decoder.decode(run)
      return
    }
    if (run) this.carried.push(run)
    const all = new Uint8Array(this.carried.reduce((sum, part) => sum + part.length, 0))
    let at = 0
    for (const part of this.carried) {
      all.set(part, at)
      at += part.length
    }
    this.carried = []
    this.text += decoder.decode(all)
  }

  private endNumber(at: number): void {
    if (!NUMBER.test(this.token)) this.fail(at, 'bad number')
    const value = Number(this.token)
    this.token = ''
    this.completed(value)
  }

  /** A byte outside strings, numbers and literals. */
  private structural(byte: number, i: number): void {
    const state = this.state
    if (state === State.Done) this.fail(i, 'unexpected byte after the document')
    if (state === State.Colon) {
      if (byte !== 0x3a) this.fail(i, 'expected a colon')
      this.state = State.Value
      return
    }
    if (state === State.KeyOrClose || state === State.Key) {
      if (byte === QUOTE) {
        this.stringIsKey = true
        this.state = State.String
      } else if (byte === 0x7d && state === State.KeyOrClose) this.close()
      else this.fail(i, 'expected a key')
      return
    }
    if (state === State.CommaOrClose) {
      const frame = this.stack.at(-1)!
      if (byte === 0x2c) this.state = frame.isArray ? State.Value : State.Key
      else if (byte === (frame.isArray ? 0x5d : 0x7d)) this.close()
      else this.fail(i, 'expected a comma or the container’s end')
      return
    }
    // A value (State.Value or State.ValueOrClose).
    if (byte === 0x5d && state === State.ValueOrClose) this.close()
    else if (byte === QUOTE) {
      this.stringIsKey = false
      this.state = State.String
    } else if (byte === 0x7b || byte === 0x5b) this.open(byte === 0x5b)
    else if ((byte >= 0x30 && byte <= 0x39) || byte === 0x2d) {
      this.token = String.fromCharCode(byte)
      this.state = State.Number
    } else if (LITERALS[byte]) {
      this.literal = LITERALS[byte]
      this.token = String.fromCharCode(byte)
      this.state = State.Literal
    } else this.fail(i, 'expected a value')
  }

  private open(isArray: boolean): void {
    const parent = this.stack.at(-1)
    const at = parent ? (parent.isArray ? parent.count : parent.key) : ''
    let value: Container | null = isArray ? [] : {}
    if (isArray && this.isStreamedAt(at)) {
      value = null
      this.attach(parent, this.options.onStreamStart?.(parent?.value ?? null, at))
    }
    this.stack.push({ value, isArray, key: '', count: 0, at })
    this.state = isArray ? State.ValueOrClose : State.KeyOrClose
  }

  /** Whether a container opening at `at` in the innermost one is at `streamAt`. */
  private isStreamedAt(at: string | number): boolean {
    const path = this.options.streamAt
    if (!path || path.length !== this.stack.length) return false
    // The root frame has no place; each other frame's place is the path's key before its own.
    for (let depth = 1; depth < this.stack.length; depth++) {
      if (this.stack[depth]!.at !== path[depth - 1]) return false
    }
    return path.length === 0 || path.at(-1) === at
  }

  private close(): void {
    const frame = this.stack.pop()!
    if (frame.value !== null) {
      this.completed(frame.value)
      return
    }
    // A streamed array: its marker is in place already.
    const parent = this.stack.at(-1)
    if (parent?.isArray) parent.count++
    this.state = parent ? State.CommaOrClose : State.Done
  }

  /** Puts a complete value where it goes. */
  private completed(value: unknown): void {
    const parent = this.stack.at(-1)
    if (!parent) {
      this.root = value
      this.state = State.Done
      return
    }
    if (parent.isArray && parent.value === null) this.options.onElement?.(value, parent.count)
    else this.attach(parent, value)
    if (parent.isArray) parent.count++
    this.state = State.CommaOrClose
  }

  private attach(parent: Frame | undefined, value: unknown): void {
    if (!parent) this.root = value
    else if (parent.value === null) return
    else if (parent.isArray) (parent.value as unknown[]).push(value)
    else setMember(parent.value as Record<string, unknown>, parent.key, value)
  }
}

/** `bytes` parsed whole (no streamed arrays): what `JSON.parse` of their text gives. */
export function parseJsonBytes(pieces: Iterable<Uint8Array>): unknown {
  const parser = new JsonStreamParser()
  for (const piece of pieces) parser.write(piece)
  return parser.end()
}
