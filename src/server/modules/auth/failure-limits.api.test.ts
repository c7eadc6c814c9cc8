import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { authOperations } from '../../../domain/api/auth.ts'
import { DEFAULT_PASSWORD, errorOf, TestClient, uniqueEmail } from '../../testing/client.ts'
import { codeOf, TestMailbox } from '../../testing/mailbox.ts'
import { createTestApp, type TestApp } from '../../testing/test-app.ts'
import { recordFailure } from './failure-limits.ts'

/**
 * Review item 5: 10 wrong passwords from anywhere locked the owner's password sign-in for 15
 * minutes, and 5 wrong code guesses killed the owner's pending code. Failures now count per
 * account and client pair (with a cap per account and growing waits), so a stranger locks out only
 * themself.
 */
let mailbox: TestMailbox
let testApp: TestApp
beforeAll(async () => {
  mailbox = await TestMailbox.start()
  testApp = await createTestApp({ rateLimitMultiplier: 1, smtpUrl: mailbox.url })
})
afterAll(async () => {
  await testApp.close()
  await mailbox.close()
})
afterEach(() => vi.useRealTimers())

let addresses = 0
const freshIp = () => {
  addresses += 1
  return `198.18.${Math.floor(addresses / 250)}.${addresses % 250}`
}

const db = () => testApp.database.db
const signIn = (ip: string, email: string, password: string) =>
  new TestClient(testApp, { ip }).signIn(email, password)

/** Moves the clock on (only Date), as if the client had waited. */
function wait(seconds: number) {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

describe('password sign-in', () => {
  it("a stranger's failures lock the stranger out, not the owner", async () => {
    const email = uniqueEmail('victim')
    await new TestClient(testApp).signUp(email)
    const stranger = freshIp()
    // Wrong passwords, waiting whenever told to, until the stranger is locked out.
    let refused = await signIn(stranger, email, 'a wrong password!')
    for (let i = 0; i < 20 && refused.status !== 429; i++) {
      refused = await signIn(stranger, email, 'a wrong password!')
      if (errorOf(refused).message.startsWith('Rate limit reached')) {
        wait(Number(refused.headers.get('retry-after')))
        refused = await signIn(stranger, email, 'a wrong password!')
      }
    }
    expect(refused.status).toBe(429)
    expect(errorOf(refused).message).toBe('Too many attempts. Please try again later.')
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
    expect((await signIn(stranger, email, DEFAULT_PASSWORD)).status).toBe(429)

    expect((await signIn(freshIp(), email, DEFAULT_PASSWORD)).status).toBe(200)
  })

  it('makes a failing client wait longer after each failure beyond the third', async () => {
    const email = uniqueEmail('delays')
    await new TestClient(testApp).signUp(email)
    const client = freshIp()
    for (let i = 0; i < 3; i++) expect((await signIn(client, email, 'a wrong password!')).status).toBe(401)
    const waits: number[] = []
    for (let i = 0; i < 3; i++) {
      const early = await signIn(client, email, DEFAULT_PASSWORD)
      expect(early.status).toBe(429)
      expect(errorOf(early).message).toMatch(/^Rate limit reached. Please wait [\d,]+ seconds/)
      const seconds = Number(early.headers.get('retry-after'))
      waits.push(seconds)
      wait(seconds)
      expect((await signIn(client, email, 'a wrong password!')).status).toBe(401)
    }
    expect(waits).toEqual([1, 2, 4])
  })

  it('gives a client its tries back when it signs in', async () => {
    const email = uniqueEmail('recovers')
    await new TestClient(testApp).signUp(email)
    const client = freshIp()
    for (let i = 0; i < 3; i++) await signIn(client, email, 'a wrong password!')
    wait(1)
    expect((await signIn(client, email, DEFAULT_PASSWORD)).status).toBe(200)
    for (let i = 0; i < 3; i++) expect((await signIn(client, email, 'a wrong password!')).status).toBe(401)
  })

  it('past the cap per account, locks out every client that failed and gives a new one a single try', async () => {
    const email = uniqueEmail('spread')
    await new TestClient(testApp).signUp(email)
    // 33 addresses with 3 wrong passwords each, then a 34th reaches the cap of 100.
    const failed: string[] = []
    for (let client = 0; client < 33; client++) {
      const ip = freshIp()
      failed.push(ip)
      for (let i = 0; i < 3; i++) await recordFailure(db(), 'sign-in', { ip, account: email })
    }
    const last = freshIp()
    expect((await signIn(last, email, 'a wrong password!')).status).toBe(401)
    expect((await signIn(last, email, 'a wrong password!')).status).toBe(429)
    // Every client that failed is locked out, even with the right password now.
    const locked = await signIn(failed[0]!, email, DEFAULT_PASSWORD)
    expect([locked.status, errorOf(locked).message]).toEqual([
      429,
      'Too many attempts. Please try again later.',
    ])
    // The owner, from an address of their own, still signs in.
    expect((await signIn(freshIp(), email, DEFAULT_PASSWORD)).status).toBe(200)
    // A guesser gets one try per new address.
    const guesser = freshIp()
    expect((await signIn(guesser, email, 'another wrong one')).status).toBe(401)
    expect((await signIn(guesser, email, 'and another one')).status).toBe(429)
  })

  it('locks password sign-in for everyone past ten times the cap; the emailed code still signs in', async () => {
    const email = uniqueEmail('flood')
    await new TestClient(testApp).signUp(email)
    for (let i = 0; i < 1000; i++) await recordFailure(db(), 'sign-in', { ip: freshIp(), account: email })
    expect((await signIn(freshIp(), email, DEFAULT_PASSWORD)).status).toBe(429)
    const before = mailbox.to(email).length
    const ip = freshIp()
    expect(
      (await new TestClient(testApp, { ip }).call(authOperations.sendCode, { body: { email } })).status,
    ).toBe(200)
    const code = codeOf(await mailbox.waitFor(email, { after: before }))
    const res = await new TestClient(testApp, { ip }).call(authOperations.verifyCode, {
      body: { email, code },
    })
    expect(res.status).toBe(200)
  })
})

describe('emailed codes', () => {
  async function sendCode(email: string, ip = freshIp()) {
    const before = mailbox.to(email).length
    expect(
      (await new TestClient(testApp, { ip }).call(authOperations.sendCode, { body: { email } })).status,
    ).toBe(200)
    return codeOf(await mailbox.waitFor(email, { after: before }))
  }
  const verify = (ip: string, email: string, code: string) =>
    new TestClient(testApp, { ip }).call(authOperations.verifyCode, { body: { email, code } })
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')

  it("a stranger's wrong guesses do not kill the owner's code", async () => {
    const email = uniqueEmail('code-victim')
    const code = await sendCode(email)
    const stranger = freshIp()
    for (let i = 0; i < 5; i++) expect((await verify(stranger, email, wrongFor(code))).status).toBe(400)

    const refused = await verify(stranger, email, code)
    expect(refused.status).toBe(429)
    expect(errorOf(refused).message).toBe('Too many wrong codes. Please request a new code.')

    expect((await verify(freshIp(), email, code)).status).toBe(200)
  })

  it('gives a client new tries with a new code', async () => {
    const email = uniqueEmail('code-retry')
    const client = freshIp()
    const first = await sendCode(email, client)
    for (let i = 0; i < 5; i++) await verify(client, email, wrongFor(first))
    wait(61) // the resend cooldown
    const second = await sendCode(email, client)
    expect((await verify(client, email, second)).status).toBe(200)
  })

  it('dies after 15 wrong guesses from all clients together; the owner’s new code from a new address still signs in', async () => {
    const email = uniqueEmail('code-spread')
    const code = await sendCode(email)
    const guessers = [freshIp(), freshIp(), freshIp()]
    for (const ip of guessers) {
      for (let i = 0; i < 5; i++) expect((await verify(ip, email, wrongFor(code))).status).toBe(400)
    }
    // The code is dead, for everyone.
    expect((await verify(freshIp(), email, code)).status).not.toBe(200)
    // The owner asks for a new code and uses it from an address that never failed.
    wait(61) // the resend cooldown
    const owner = freshIp()
    const next = await sendCode(email, owner)
    expect((await verify(owner, email, next)).status).toBe(200)
    // The guessers stay locked out, even with a right code.
    expect((await verify(guessers[0]!, email, next)).status).toBe(429)
  })
})
