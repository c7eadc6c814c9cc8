// `npm test`: every suite, stopping after the first stage that fails, then how long each took, so
// a CI log shows where its minutes go.
//
// The suites of one stage run at the same time: the type check is one compiler thread and the lint
// hardly more, so on two cores they fit beside the unit tests (measured in docs/testing.md). The
// contract suite spends its first seconds installing its clients (network and disk), so the build
// that the end-to-end suite needs (scripts/build-if-stale.mjs; `build` below) runs beside it
// (decision 0277). The first suite of a stage writes as it goes; the others' output is held and
// printed whole after it.
import { spawn } from 'node:child_process'

const stages = [['test:unit', 'typecheck', 'lint'], ['test:api'], ['test:contract', 'build'], ['test:e2e']]
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
/** Steps that are not npm scripts: the build only when it is missing or stale, as `npm start` does. */
const commands = { build: [process.execPath, ['scripts/build-if-stale.mjs']] }

/** Runs `npm run <step>`, writing as it goes (`live`) or holding its output in `output`. */
function runStep(step, live) {
  return new Promise((resolve) => {
    const started = performance.now()
    const [command, args] = commands[step] ?? [npm, ['run', step]]
    const child = spawn(command, args, { stdio: live ? 'inherit' : ['ignore', 'pipe', 'pipe'] })
    const held = []
    child.stdout?.on('data', (chunk) => held.push(chunk))
    child.stderr?.on('data', (chunk) => held.push(chunk))
    child.on('close', (status) =>
      resolve({ step, status, seconds: (performance.now() - started) / 1000, output: Buffer.concat(held) }),
    )
  })
}

const taken = []
let failed = []
for (const stage of stages) {
  const started = performance.now()
  const results = await Promise.all(stage.map((step, index) => runStep(step, index === 0)))
  for (const { output } of results) process.stdout.write(output)
  taken.push({ stage, results, seconds: (performance.now() - started) / 1000 })
  failed = results.filter((result) => result.status !== 0).map((result) => result.step)
  if (failed.length > 0) break
}

const total = taken.reduce((sum, { seconds }) => sum + seconds, 0)
console.log('\nnpm test, seconds per suite:')
for (const { results, seconds } of taken) {
  for (const result of results) {
    console.log(`  ${result.step.padEnd(14)} ${result.seconds.toFixed(0).padStart(5)} s`)
  }
  if (results.length > 1) console.log(`  ${'(together)'.padEnd(14)} ${seconds.toFixed(0).padStart(5)} s`)
}
console.log(`  ${'total'.padEnd(14)} ${total.toFixed(0).padStart(5)} s`)
if (failed.length > 0) {
  console.error(`npm test: ${failed.join(', ')} failed`)
  process.exit(1)
}
