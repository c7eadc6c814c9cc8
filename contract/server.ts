import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { type ServerProcess, startServerProcess } from '../src/server/testing/server-process.ts'

/**
 * A Promptfolio server as a client outside meets it: the real server process on the database the
 * project names (TEST_DB=postgres: a fresh schema in TEST_DATABASE_URL, dropped afterwards;
 * otherwise the embedded database in a fresh DATA_DIR), a user who signed up over HTTP and a
 * read-write API key of theirs, which is all a Langfuse client is given.
 */
export interface ContractServer {
  base: string
  key: { publicKey: string; secretKey: string }
  /** `Authorization` value for the Langfuse routes: Basic with the key pair. */
  basicAuth: string
  /** A Langfuse route called with the key; the JSON answer (or null) and its status. */
  langfuse<T = unknown>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }>
  stop(): Promise<void>
}

export async function startContractServer(): Promise<ContractServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'promptfolio-contract-'))
  const database = await contractDatabase()
  let server: ServerProcess | undefined
  const stop = async () => {
    await server?.stop()
    await database.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    server = await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: database.url, LOG_LEVEL: 'warn' })
    const key = await signUpWithKey(server.base)
    const basicAuth = `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}`
    const base = server.base
    return {
      base,
      key,
      basicAuth,
      langfuse: async (method, route, body) => {
        const res = await fetch(new URL(route, base), {
          method,
          headers: { Authorization: basicAuth, 'Content-Type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        })
        const text = await res.text()
        return { status: res.status, body: (text ? JSON.parse(text) : null) as never }
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}

/**
 * Signs a new user up, as the web app does (its Origin, the session cookie it gets), and makes a
 * personal read-write key: what a person does in the app before handing the key to a client.
 */
async function signUpWithKey(base: string): Promise<ContractServer['key']> {
  const password = 'correct horse battery staple'
  const email = `contract-${randomBytes(6).toString('hex')}@example.com`
  const post = (route: string, body: unknown, cookie = '') =>
    fetch(new URL(route, base), {
      method: 'POST',
      headers: { Origin: base, 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    })
  const signUp = await post('/api/v1/auth/sign-up', {
    email,
    password,
    confirmPassword: password,
    acceptTerms: true,
  })
  if (signUp.status !== 201) throw new Error(`sign-up: ${signUp.status} ${await signUp.text()}`)
  const cookie = signUp.headers
    .getSetCookie()
    .map((header) => header.split(';')[0])
    .join('; ')
  const created = await post('/api/v1/api-keys', { name: 'contract', scope: 'read_write' }, cookie)
  if (created.status !== 201) throw new Error(`API key: ${created.status} ${await created.text()}`)
  return (await created.json()) as ContractServer['key']
}

/** DATABASE_URL for the server process ('' is the embedded database) and how to remove it after. */
async function contractDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (process.env.TEST_DB !== 'postgres') return { url: '', drop: async () => {} }
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL')
  const schema = `contract_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url })
    await client.connect()
    try {
      await client.query(statement)
    } finally {
      await client.end()
    }
  }
  await admin(`CREATE SCHEMA ${schema}`)
  const serverUrl = new URL(url)
  serverUrl.searchParams.set('options', `-c search_path=${schema},public`)
  return { url: serverUrl.toString(), drop: () => admin(`DROP SCHEMA ${schema} CASCADE`) }
}
