import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim()

/**
 * An earlier commit checked out in a temporary worktree that shares this checkout's node_modules,
 * for the A/B benchmarks that run its build beside this working tree's; `remove` deletes it.
 */
export function earlierCheckout(base: string): {
  /** The commit, short. */
  commit: string
  dir: string
  /** What the other side of the comparison is: this working tree (with changes) or its commit. */
  current: string
  remove(): void
} {
  const commit = git('rev-parse', '--short=12', base)
  const dir = mkdtempSync(path.join(tmpdir(), 'promptfolio-ab-'))
  git('worktree', 'add', '--detach', dir, commit)
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
  const dirty = git('status', '--porcelain', '--untracked-files=no') !== ''
  return {
    commit,
    dir,
    current: dirty ? 'this working tree' : `this checkout (${git('rev-parse', '--short=12', 'HEAD')})`,
    remove() {
      git('worktree', 'remove', '--force', dir)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
