import { readFileSync } from 'node:fs'
import { SourceMap } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * The bundle's maps by file, read on the first stack that names the file (null: it has none). Node
 * maps stacks itself under `--enable-source-maps`, but then reads and keeps every module's map at
 * start: about 8 MB of an idle server's memory (decision 0281) for errors it may never log. Here a
 * map costs nothing until an error is logged, then one synchronous read (tens of ms for the
 * bundle's) and its memory from then on.
 */
const maps = new Map<string, { map: SourceMap; dir: string } | null>()

/** A frame's position in a built module: `file:///…/x.mjs:line:column` or a plain path. */
const POSITION = /((?:file:\/\/)?\/[^\s()]+?\.m?js):(\d+):(\d+)/g

/**
 * The stack with every position in a bundled file replaced by the TypeScript source's path, line
 * and column, as `--enable-source-maps` writes them. Positions in files without a map (node's own,
 * the sources run by tsx in tests) stay as they are.
 */
export function sourceMappedStack(stack: string): string {
  return stack.replace(POSITION, (position, file: string, line: string, column: string) => {
    const found = mapOf(file.startsWith('file://') ? fileURLToPath(file) : file)
    if (!found) return position
    const entry = found.map.findEntry(Number(line) - 1, Number(column) - 1)
    if (!('originalSource' in entry)) return position
    return `${path.resolve(found.dir, entry.originalSource)}:${entry.originalLine + 1}:${entry.originalColumn + 1}`
  })
}

function mapOf(file: string) {
  let found = maps.get(file)
  if (found === undefined) {
    found = readMap(file)
    maps.set(file, found)
  }
  return found
}

function readMap(file: string) {
  let text: string
  try {
    text = readFileSync(`${file}.map`, 'utf8')
  } catch {
    return null
  }
  try {
    return { map: new SourceMap(JSON.parse(text)), dir: path.dirname(file) }
  } catch {
    // A map that does not parse maps nothing; the stack is still worth writing.
    return null
  }
}
