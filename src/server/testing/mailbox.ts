import type { AddressInfo } from 'node:net'
import { type ParsedMail, simpleParser } from 'mailparser'
import { SMTPServer } from 'smtp-server'

/** A mail as received by the test SMTP server. */
export interface ReceivedMail {
  to: string[]
  from: string
  subject: string
  text: string
  html: string
  receivedAt: number
}

/** The 6-digit code and the first https?:// link of a mail's text part. */
export function codeOf(mail: ReceivedMail): string {
  const code = mail.text.match(/^\s*(\d{6})\s*$/m)?.[1]
  if (!code) throw new Error(`no 6-digit code in mail "${mail.subject}"`)
  return code
}

export function linkOf(mail: ReceivedMail, pathPrefix = '/'): string {
  const link = mail.text.match(/https?:\/\/\S+/g)?.find((url) => new URL(url).pathname.startsWith(pathPrefix))
  if (!link) throw new Error(`no link to ${pathPrefix} in mail "${mail.subject}"`)
  return link
}

function toReceived(parsed: ParsedMail): ReceivedMail {
  const addresses = (value: ParsedMail['to']) =>
    (Array.isArray(value) ? value : value ? [value] : []).flatMap((group) =>
      group.value.map((entry) => (entry.address ?? '').toLowerCase()),
    )
  return {
    to: addresses(parsed.to),
    from: parsed.from?.text ?? '',
    subject: parsed.subject ?? '',
    text: parsed.text ?? '',
    html: typeof parsed.html === 'string' ? parsed.html : '',
    receivedAt: Date.now(),
  }
}

/**
 * A real SMTP server on 127.0.0.1 (random port, no auth, no TLS) that keeps what it receives.
 * `waitFor(address)` resolves with the next mail to that address that arrived after `since`.
 */
export class TestMailbox {
  readonly mails: ReceivedMail[] = []
  /** While true, every connection is greeted with 421 (service not available), as by a server in trouble. */
  refusing = false
  private waiters = new Set<() => void>()
  private server: SMTPServer
  port = 0

  /** `acceptAfterMs`: a slow server, which confirms each mail only after this long. */
  constructor(options: { acceptAfterMs?: number } = {}) {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      // On close, a client's idle kept connection (the app's transport pools them) is ended at once
      // with a 421, instead of after smtp-server's default 30 s: a test that closes its mailbox
      // waited for that. A mail still being received at close is cut off too: close the mailbox
      // after the app has stopped sending.
      closeTimeout: 50,
      onConnect: (_session, callback) => {
        if (!this.refusing) return callback()
        callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }))
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream)
          .then(async (parsed) => {
            if (options.acceptAfterMs)
              await new Promise((resolve) => setTimeout(resolve, options.acceptAfterMs))
            this.mails.push(toReceived(parsed))
            for (const wake of this.waiters) wake()
            callback()
          })
          .catch((error: Error) => callback(error))
      },
    })
    // A client that vanishes in the middle of a mail (the crash test kills the app while it sends)
    // resets its connection, and smtp-server reports that as the server's 'error' event: with no
    // listener, an uncaught exception in the test process. Anything else still is one.
    this.server.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return
      throw error
    })
  }

  /** Listens on `port` (a free one when omitted). */
  static async start(port = 0, options: { acceptAfterMs?: number } = {}): Promise<TestMailbox> {
    const mailbox = new TestMailbox(options)
    await new Promise<void>((resolve) => mailbox.server.listen(port, '127.0.0.1', resolve))
    mailbox.port = (mailbox.server.server.address() as AddressInfo).port
    return mailbox
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`
  }

  /** Mail to `address` (newest last). */
  to(address: string): ReceivedMail[] {
    const wanted = address.toLowerCase()
    return this.mails.filter((mail) => mail.to.includes(wanted))
  }

  /** The first mail to `address` that arrives after index `after` of `to(address)`; fails after `timeoutMs`. */
  async waitFor(
    address: string,
    options: { after?: number; timeoutMs?: number } = {},
  ): Promise<ReceivedMail> {
    const after = options.after ?? 0
    const found = () => this.to(address)[after]
    return (
      found() ??
      new Promise<ReceivedMail>((resolve, reject) => {
        const wake = () => {
          const mail = found()
          if (!mail) return
          this.waiters.delete(wake)
          clearTimeout(timer)
          resolve(mail)
        }
        const timer = setTimeout(() => {
          this.waiters.delete(wake)
          reject(new Error(`no mail to ${address} within ${options.timeoutMs ?? 10_000} ms`))
        }, options.timeoutMs ?? 10_000)
        this.waiters.add(wake)
      })
    )
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()))
  }
}
