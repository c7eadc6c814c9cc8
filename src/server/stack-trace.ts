import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Where the built server's files are (`dist/server`, its chunks below): the only files whose maps
 * are read. A stack's text can carry anything an error message quotes (a query's parameters, a
 * client's input), so a path in it is not a reason to read a file elsewhere.
 */
const BUNDLE_DIR = path.dirname(fileURLToPath(import.meta.url))

/** How long a read map is kept after its last use: a burst of errors reads it once. */
const MAP_KEPT_MS = 60_000

interface RawMap {
  sources: string[]
  mappings: string
}

/** The maps read lately, by the built file's path (null: none or unreadable), with the positions found in them. */
const kept = new Map<string, { map: RawMap | null; found: Map<string, string>; timer: NodeJS.Timeout }>()

/** Positions kept per map: an error logged again and again names the same few frames. */
const POSITIONS_KEPT = 2_000
/** Frames mapped per stack: V8 records 10; a stack with more has had lines added to it. */
const FRAMES_MAPPED = 20

/** A frame line of a V8 stack: `    at fn (file:///…/x.mjs:line:column)` or `    at file:///…:line:column`. */
const FRAME = /^ {4}at .*$/gm
/** A position in a built file, inside a frame line. */
const POSITION = /((?:file:\/\/)?\/[^\s()]+?\.m?js):(\d+):(\d+)/g

/**
 * The stack with every position in the built server replaced by the TypeScript source's path, line
 * and column, as `--enable-source-maps` writes them. Node maps stacks itself under that flag, but
 * then reads and keeps every module's map at start, and parsing the bundle's map with its
 * `SourceMap` class holds about 45 MB (decision 0281); here the map is decoded for the positions
 * asked only (a few ms each, each found kept), and kept as text for a minute. Only frame lines after
 * the error's `message` are read (a message may quote anything, lines that look like frames
 * included), only files under `root`; anything that cannot be mapped stays as it is.
 */
export function sourceMappedStack(stack: string, message = '', root = BUNDLE_DIR): string {
  const at = message ? stack.indexOf(message) : -1
  const head = at < 0 ? '' : stack.slice(0, at + message.length)
  let frames = 0
  const tail = stack.slice(head.length).replace(FRAME, (frame) =>
    ++frames > FRAMES_MAPPED
      ? frame
      : frame.replace(POSITION, (position, file: string, line: string, column: string) => {
          try {
            const found = mapOf(path.resolve(file.startsWith('file://') ? fileURLToPath(file) : file), root)
            return found ? mappedPosition(found, position, Number(line) - 1, Number(column) - 1) : position
          } catch {
            // A malformed file URL, a map that does not say what it should: the position as it was.
            return position
          }
        }),
  )
  return head + tail
}

function mappedPosition(
  found: { map: RawMap; dir: string; positions: Map<string, string> },
  position: string,
  line: number,
  column: number,
): string {
  let mapped = found.positions.get(position)
  if (mapped === undefined) {
    const original = originalPosition(found.map, line, column)
    mapped = original
      ? `${path.resolve(found.dir, original.source)}:${original.line}:${original.column}`
      : position
    if (found.positions.size >= POSITIONS_KEPT) found.positions.clear()
    found.positions.set(position, mapped)
  }
  return mapped
}

function mapOf(file: string, root: string) {
  if (!file.startsWith(root + path.sep)) return null
  let entry = kept.get(file)
  if (entry) {
    entry.timer.refresh()
  } else {
    const timer = setTimeout(() => kept.delete(file), MAP_KEPT_MS)
    timer.unref()
    entry = { map: readMap(file), found: new Map(), timer }
    kept.set(file, entry)
  }
  return entry.map && { map: entry.map, dir: path.dirname(file), positions: entry.found }
}

function readMap(file: string): RawMap | null {
  try {
    const { sources, mappings } = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as Partial<RawMap>
    return Array.isArray(sources) && typeof mappings === 'string' ? { sources, mappings } : null
  } catch {
    return null
  }
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < BASE64.length; i++) DIGITS[BASE64.charCodeAt(i)] = i

/**
 * The source position (1-based line and column) of a generated one (0-based), as Node's
 * `SourceMap.findEntry` finds it: the last mapping at or before it. One pass over the "mappings"
 * (source map v3: base64 VLQ segments, `,` between segments, `;` between generated lines; every
 * field but the column is relative to the previous segment of the whole file), nothing kept.
 */
export function originalPosition(
  map: RawMap,
  line: number,
  column: number,
): { source: string; line: number; column: number } | null {
  const text = map.mappings
  const fields = [0, 0, 0, 0, 0]
  let generatedLine = 0
  let generatedColumn = 0
  let source = 0
  let originalLine = 0
  let originalColumn = 0
  let found: [number, number, number] | null = null
  let i = 0
  while (i < text.length && generatedLine <= line) {
    const char = text.charCodeAt(i)
    if (char === 59 /* ; */) {
      generatedLine++
      generatedColumn = 0
      i++
      continue
    }
    if (char === 44 /* , */) {
      i++
      continue
    }
    let count = 0
    while (i < text.length && text.charCodeAt(i) !== 44 && text.charCodeAt(i) !== 59) {
      let value = 0
      let shift = 0
      let digit: number
      do {
        digit = DIGITS[text.charCodeAt(i++)] ?? -1
        if (digit < 0) return null
        value += (digit & 31) << shift
        shift += 5
      } while (digit & 32)
      fields[count++] = value & 1 ? -(value >>> 1) : value >>> 1
    }
    generatedColumn += fields[0]!
    if (count >= 4) {
      source += fields[1]!
      originalLine += fields[2]!
      originalColumn += fields[3]!
      if (generatedLine < line || generatedColumn <= column) found = [source, originalLine, originalColumn]
    }
  }
  const name = found && map.sources[found[0]]
  return found && typeof name === 'string' ? { source: name, line: found[1] + 1, column: found[2] + 1 } : null
}
