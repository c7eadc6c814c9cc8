import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ContractServer, startContractServer } from '../server.ts'

/**
 * promptfoo, installed from its lockfile beside this file as its Langfuse guide says (promptfoo and
 * @langfuse/client), evaluates `langfuse://` prompts against a started Promptfolio with its `echo`
 * provider, which answers with the prompt it was given: the compiled prompt, as promptfoo fetched
 * and filled it. The CLI runs unchanged, with only the environment a user sets.
 */
const promptfoo = path.join(import.meta.dirname, 'node_modules/.bin/promptfoo')

/** The parts of promptfoo's `--output` JSON read here: each result names its prompt by index. */
interface EvalOutput {
  results: {
    prompts: { raw: string }[]
    results: {
      promptIdx: number
      response?: { output: string }
      error?: string
      success: boolean
    }[]
  }
}

let server: ContractServer
const work = mkdtempSync(path.join(tmpdir(), 'promptfolio-promptfoo-'))

beforeAll(async () => {
  server = await startContractServer()
  const create = async (body: Record<string, unknown>) => {
    const res = await server.langfuse('POST', '/api/public/v2/prompts', body)
    expect(res.status, JSON.stringify(res.body)).toBe(201)
  }
  // A folder name (the slash is sent encoded) and text kept exactly as sent, trailing newline too.
  await create({ name: 'contract/greeting', prompt: 'Hello {{name}}!\n', labels: ['production'] })
  await create({ name: 'contract/greeting', prompt: 'Hi {{name}}, from version 2.', labels: ['staging'] })
  await create({
    name: 'contract/chat',
    type: 'chat',
    prompt: [
      { role: 'system', content: 'You greet people.' },
      { role: 'user', content: 'Greet {{name}}.' },
    ],
    labels: ['production'],
  })
  // Composition: the server resolves the included prompt before promptfoo sees the text.
  await create({ name: 'contract/footer', prompt: '-- sent from Promptfolio', labels: ['production'] })
  await create({
    name: 'contract/with-footer',
    prompt: 'Dear {{name}}\n@@@langfusePrompt:name=contract/footer|label=production@@@',
    labels: ['production'],
  })
})

afterAll(async () => {
  await server?.stop()
  rmSync(work, { recursive: true, force: true })
})

/** Runs `promptfoo eval` on these prompts with the echo provider and `name: Ada`. */
async function evaluate(
  prompts: string[],
): Promise<{ output: EvalOutput | null; stdout: string; code: number }> {
  const dir = mkdtempSync(path.join(work, 'eval-'))
  const config = path.join(dir, 'promptfooconfig.yaml')
  writeFileSync(
    config,
    [
      'prompts:',
      ...prompts.map((prompt) => `  - ${JSON.stringify(prompt)}`),
      'providers:',
      '  - echo',
      'tests:',
      '  - vars:',
      '      name: Ada',
      '',
    ].join('\n'),
  )
  const outputFile = path.join(dir, 'output.json')
  const { stdout, code } = await new Promise<{ stdout: string; code: number }>((resolve) => {
    execFile(
      promptfoo,
      ['eval', '--config', config, '--no-cache', '--no-write', '--no-table', '--output', outputFile],
      {
        cwd: dir,
        timeout: 120_000,
        // What a user sets, and nothing of the test runner's environment: the key, the server's
        // address, and no calls home (telemetry, update and runtime notices, sharing), as there
        // is no network here.
        env: {
          PATH: process.env.PATH,
          HOME: dir,
          PROMPTFOO_CONFIG_DIR: path.join(dir, '.promptfoo'),
          PROMPTFOO_DISABLE_TELEMETRY: '1',
          PROMPTFOO_DISABLE_UPDATE: '1',
          PROMPTFOO_DISABLE_SHARING: '1',
          PROMPTFOO_DISABLE_REMOTE_GENERATION: '1',
          PROMPTFOO_DISABLE_RUNTIME_WARNINGS: '1',
          LANGFUSE_PUBLIC_KEY: server.key.publicKey,
          LANGFUSE_SECRET_KEY: server.key.secretKey,
          LANGFUSE_HOST: server.base,
        },
      },
      (error, out, err) =>
        resolve({
          stdout: `${out}${err}`,
          code: typeof error?.code === 'number' ? error.code : error ? -1 : 0,
        }),
    )
  })
  const output = existsSync(outputFile) ? (JSON.parse(readFileSync(outputFile, 'utf8')) as EvalOutput) : null
  return { output, stdout, code }
}

/** What the echo provider answers for each prompt that exists: the prompt, compiled with `name: Ada`. */
const compiled = {
  'langfuse://contract/greeting@production': 'Hello Ada!\n',
  'langfuse://contract/greeting@staging': 'Hi Ada, from version 2.',
  'langfuse://contract/greeting:1': 'Hello Ada!\n',
  'langfuse://contract/greeting:2': 'Hi Ada, from version 2.',
  'langfuse://contract/greeting:latest': 'Hi Ada, from version 2.',
  'langfuse://contract/with-footer@production': 'Dear Ada\n-- sent from Promptfolio',
  'langfuse://contract/chat@production:chat': JSON.stringify([
    { role: 'system', content: 'You greet people.' },
    { role: 'user', content: 'Greet Ada.' },
  ]),
}
const missing = 'langfuse://contract/missing@production'

describe('promptfoo eval with langfuse:// prompts', () => {
  // One eval of every prompt (promptfoo takes seconds to start): each prompt is a result of its own.
  let run: Awaited<ReturnType<typeof evaluate>>
  let answers: Record<string, { output?: string; error?: string; success: boolean }>
  beforeAll(async () => {
    run = await evaluate([...Object.keys(compiled), missing])
    if (!run.output) throw new Error(`promptfoo wrote no results (exit ${run.code}):\n${run.stdout}`)
    const { prompts, results } = run.output.results
    answers = Object.fromEntries(
      results.map((result) => [
        prompts[result.promptIdx]?.raw ?? '',
        { output: result.response?.output, error: result.error, success: result.success },
      ]),
    )
  })

  it('compiles each prompt by label and by version, text and chat, as the server holds it', () => {
    const succeeded = Object.fromEntries(
      Object.keys(compiled).map((prompt) => [
        prompt,
        answers[prompt]?.success ? answers[prompt].output : answers[prompt],
      ]),
    )
    expect(succeeded, run.stdout).toEqual(compiled)
  })

  it('reports a prompt the server does not have as an error of that prompt, with the 404', () => {
    expect(answers[missing]?.success).toBe(false)
    expect(answers[missing]?.error).toContain(
      'Failed to fetch Langfuse prompt "contract/missing" with label "production"',
    )
    expect(answers[missing]?.error).toContain('Status code: 404')
    // promptfoo's exit code for an eval with errors; 0 would mean it took the missing prompt as found.
    expect(run.code).not.toBe(0)
  })
})
