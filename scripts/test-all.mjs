// `npm test`: every suite in turn, stopping at the first that fails, then how long each took, so
// a CI log shows where its minutes go.
import { spawnSync } from 'node:child_process'

const steps = ['typecheck', 'lint', 'test:unit', 'test:api', 'test:contract', 'test:e2e']
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const taken = []
let failed = null
for (const step of steps) {
  const started = performance.now()
  const { status } = spawnSync(npm, ['run', step], { stdio: 'inherit' })
  taken.push([step, (performance.now() - started) / 1000])
  if (status !== 0) {
    failed = step
    break
  }
}
const total = taken.reduce((sum, [, seconds]) => sum + seconds, 0)
console.log('\nnpm test, seconds per suite:')
for (const [step, seconds] of taken) console.log(`  ${step.padEnd(14)} ${seconds.toFixed(0).padStart(5)} s`)
console.log(`  ${'total'.padEnd(14)} ${total.toFixed(0).padStart(5)} s`)
if (failed) {
  console.error(`npm test: ${failed} failed`)
  process.exit(1)
}
