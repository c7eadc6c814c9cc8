// `npm run test:contract`: real clients of the Langfuse-compatible API (promptfoo, a client
// generated from Langfuse's OpenAPI document), each installed from the lockfile of its own folder
// here and run against a started server; see contract/README.md. Arguments go to vitest
// (`npm run test:contract -- contract/promptfoo` runs one folder).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '..')
const folders = ['promptfoo', 'langfuse-openapi']
// Optional packages left out: promptfoo lists every provider's SDK as optional (1.9 GB in all);
// an eval of stored prompts needs none of them. No install scripts: none is needed either.
const installArgs = ['ci', '--omit=optional', '--ignore-scripts', '--no-audit', '--no-fund']
const stampName = '.promptfolio-install'

/** Runs a command in `cwd`, printing its output; throws if it fails. */
const run = (command, args, cwd = root) => execFileSync(command, args, { cwd, stdio: 'inherit' })
/** npm as the one running this script (`npm run`), else the one on the PATH. */
const npm = (args, cwd) =>
  process.env.npm_execpath?.endsWith('.js')
    ? run(process.execPath, [process.env.npm_execpath, ...args], cwd)
    : run('npm', args, cwd)

// Install a folder only when its node_modules was not installed from this very lockfile (a stamp
// with the hash of package.json, package-lock.json and the install flags), so a second run, or a CI
// machine that keeps the folder, installs nothing.
for (const folder of folders) {
  const dir = path.join(import.meta.dirname, folder)
  const hash = createHash('sha256')
    .update(readFileSync(path.join(dir, 'package.json')))
    .update(readFileSync(path.join(dir, 'package-lock.json')))
    .update(installArgs.join(' '))
    .digest('hex')
  const stamp = path.join(dir, 'node_modules', stampName)
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
    console.log(`contract/${folder}: node_modules matches its lockfile, not installed again`)
    continue
  }
  const started = Date.now()
  npm(installArgs, dir)
  writeFileSync(stamp, hash)
  console.log(`contract/${folder}: installed in ${Math.round((Date.now() - started) / 1000)} s`)
}

// The typed client: openapi-typescript's types from Langfuse's document, made afresh each run so
// they always say what the document says; then the compiler checks every request the test makes.
const openapi = path.join(import.meta.dirname, 'langfuse-openapi')
run(
  process.execPath,
  [
    'node_modules/openapi-typescript/bin/cli.js',
    'langfuse-prompts.openapi.yml',
    '--output',
    'generated/langfuse-prompts.ts',
  ],
  openapi,
)
run(process.execPath, [
  path.join(root, 'node_modules/typescript/bin/tsc'),
  '--noEmit',
  '-p',
  path.join(openapi, 'tsconfig.json'),
])

const projects = ['contract-pglite', ...(process.env.TEST_DATABASE_URL ? ['contract-postgres'] : [])]
run(process.execPath, [
  path.join(root, 'node_modules/vitest/vitest.mjs'),
  'run',
  ...projects.flatMap((project) => ['--project', project]),
  ...process.argv.slice(2),
])
