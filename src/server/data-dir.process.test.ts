import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { promptOperations } from '../domain/api/prompts.ts'
import { errorOf, httpTarget, TestClient } from './testing/client.ts'
import { type ServerProcess, startFailure, startServerProcess } from './testing/server-process.ts'

// The "disk full or read-only DATA_DIR" reliability check on the embedded database, with the real server
// process. Read-only: as root (where permissions do not stop writes) with the immutable attribute
// (chattr +i), otherwise by taking the write permission away. Disk full: a small tmpfs filled up,
// which needs root and the right to mount; without it that test is skipped, and says so.
// Not here: a data folder that turns read-only while the server runs. PGlite 0.5 answers the
// first refused writes with an error, but may then hang for good (seen after a failed checkpoint),
// even once the folder is writable again; the server has to be restarted.
const root = process.getuid?.() === 0
const temp = mkdtempSync(path.join(tmpdir(), 'promptfolio-datadir-'))
const mountPoint = path.join(temp, 'small-disk')
const servers: ServerProcess[] = []
afterAll(async () => {
  for (const server of servers) await server.kill()
  if (canMount) run('umount', [mountPoint])
  if (canChattr) run('chattr', ['-R', '-i', temp])
  rmSync(temp, { recursive: true, force: true })
})

function run(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/** Whether chattr +i works here (root, and a file system that has the attribute). */
const canChattr = (() => {
  if (!root) return false
  const probe = path.join(temp, 'probe')
  writeFileSync(probe, '')
  if (!run('chattr', ['+i', probe])) return false
  run('chattr', ['-i', probe])
  rmSync(probe)
  return true
})()
const canMakeReadOnly = canChattr || !root
/** A small disk of its own to fill: a tmpfs (root, with the right to mount). */
const canMount = (() => {
  mkdirSync(mountPoint)
  return root && run('mount', ['-t', 'tmpfs', '-o', 'size=160m', 'tmpfs', mountPoint])
})()

function setReadOnly(dir: string, readOnly: boolean): void {
  if (canChattr) execFileSync('chattr', ['-R', readOnly ? '+i' : '-i', dir])
  else execFileSync('chmod', ['-R', readOnly ? 'a-w' : 'u+w', dir])
}

const env = (dataDir: string) => ({ DATA_DIR: dataDir, PLANS: 'off', LOG_LEVEL: 'warn' })
/** Each test starts the real server two or three times: generous on a loaded machine. */
const TIMEOUT = 240_000

async function start(dataDir: string): Promise<ServerProcess> {
  const server = await startServerProcess(env(dataDir))
  servers.push(server)
  return server
}
const titles = async (client: TestClient) =>
  (await client.call(promptOperations.list, {})).body.items.map((p) => p.title).sort()

/** Starts on `dataDir` with one account and one prompt, and answers the signed-in client. */
async function seeded(dataDir: string) {
  const server = await start(dataDir)
  const client = new TestClient(httpTarget(server.base), { origin: server.base })
  const email = `owner-${randomBytes(4).toString('hex')}@example.com`
  await client.signUp(email)
  expect((await client.call(promptOperations.create, { body: { title: 'Kept', body: 'Body' } })).status).toBe(
    201,
  )
  return { server, client, email }
}

function expectOneClearLine(message: string, dataDir: string) {
  expect(message).toContain(`Cannot write to DATA_DIR (${dataDir}`)
  // One line, no stack trace.
  expect(message).not.toMatch(/\n\s+at /)
}

/** A write refused because the database cannot write: 503, Retry-After, the message that says why. */
function expectStorageRefusal(res: { status: number; headers: Headers; body: unknown }) {
  expect(res.status).toBe(503)
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0)
  expect(errorOf(res)).toMatchObject({
    code: 'transient',
    message:
      'The server cannot save data right now (its storage is full or read-only). Please try again later.',
  })
}

describe('an embedded DATA_DIR the server cannot write', () => {
  it('that is a file: the start stops with one clear line', async () => {
    const file = path.join(temp, 'a-file')
    writeFileSync(file, 'not a folder')
    expectOneClearLine(await startFailure(startServerProcess(env(file))), file)
  })

  it.skipIf(!canMakeReadOnly)(
    'that is read-only: the start stops with one clear line; made writable again, the data is all there',
    async () => {
      const dataDir = path.join(temp, 'read-only')
      const { server, email } = await seeded(dataDir)
      expect(await server.stop()).toBe(0)

      setReadOnly(dataDir, true)
      expectOneClearLine(await startFailure(startServerProcess(env(dataDir))), dataDir)

      setReadOnly(dataDir, false)
      const again = await start(dataDir)
      const client = new TestClient(httpTarget(again.base), { origin: again.base })
      expect((await client.signIn(email)).status).toBe(200)
      expect(await titles(client)).toEqual(['Kept'])
      expect(await again.stop()).toBe(0)
    },
    TIMEOUT,
  )

  it.skipIf(!canMount)(
    'on a full disk: writes answer 503 saying why; with space again, nothing is lost',
    async () => {
      const dataDir = path.join(mountPoint, 'data')
      const filler = path.join(mountPoint, 'filler')
      try {
        const { server, client, email } = await seeded(dataDir)
        try {
          writeFileSync(filler, Buffer.alloc(200 * 1024 * 1024))
        } catch {
          // ENOSPC: the disk is full now.
        }
        // Incompressible bodies, so the table has to grow into the space that is not there.
        let refused: Awaited<ReturnType<TestClient['post']>> | undefined
        for (let i = 0; i < 200 && !refused; i++) {
          const res = await client.call(promptOperations.create, {
            body: { title: `Big ${i}`, body: randomBytes(29_000).toString('base64') },
          })

          if (res.status !== 201) refused = res
        }
        expect(refused).toBeDefined()
        expectStorageRefusal(refused!)
        const before = await titles(client)

        rmSync(filler)
        expect(
          (await client.call(promptOperations.create, { body: { title: 'With space', body: 'Body' } }))
            .status,
        ).toBe(201)
        expect(await server.stop()).toBe(0)
        const again = await start(dataDir)
        const reader = new TestClient(httpTarget(again.base), { origin: again.base })
        expect((await reader.signIn(email)).status).toBe(200)
        expect(await titles(reader)).toEqual([...before, 'With space'].sort())
        expect(await again.stop()).toBe(0)
      } finally {
        rmSync(filler, { force: true })
      }
    },
    TIMEOUT,
  )
})
