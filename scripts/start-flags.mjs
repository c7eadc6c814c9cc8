// The Node flags `npm start` runs the built server with. package.json's start script is the one
// place they are set; the benchmarks, the abuse suite and the e2e suite read them from there, so
// that what they measure and test is the server as it runs.
import { readFileSync } from 'node:fs'
import path from 'node:path'

const SERVER = 'dist/server/main.mjs'

/** A flag as the start script may give it: no quoting, nothing a shell would read as more. */
const FLAG = /^--[A-Za-z0-9-]+(=[^\s'"`;|&$<>()\\]+)?$/

/** The flags between `node` and the server's file in the start script's last command. */
export function flagsOfStartScript(script) {
  const words = script.split('&&').at(-1).trim().split(/\s+/)
  const flags = words.slice(1, -1)
  if (words[0] !== 'node' || words.at(-1) !== SERVER || !flags.every((flag) => FLAG.test(flag))) {
    throw new Error(`the start script's last command is not "node [--flags] ${SERVER}": ${script}`)
  }
  return flags
}

/** The start flags of the checkout at `root` (another commit's, for an A/B benchmark). */
export function startFlags(root = path.resolve(import.meta.dirname, '..')) {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
  return flagsOfStartScript(manifest.scripts.start)
}
