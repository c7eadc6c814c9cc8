// The e2e run's mail server (started by playwright.config.ts before the app): a real SMTP server
// on 127.0.0.1:$E2E_SMTP_PORT that the app sends to (SMTP_URL), and a small HTTP API on
// 127.0.0.1:$E2E_MAIL_PORT from which tests read what arrived (see e2e/mailbox.ts).
import { createServer } from 'node:http'
import { TestMailbox } from '../../src/server/testing/mailbox.ts'

const smtpPort = Number(process.env.E2E_SMTP_PORT)
const httpPort = Number(process.env.E2E_MAIL_PORT)
const mailbox = await TestMailbox.start(smtpPort)

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://local')
  res.setHeader('content-type', 'application/json')
  if (url.pathname === '/health') {
    res.end(JSON.stringify({ ok: true, smtpPort: mailbox.port }))
    return
  }
  if (url.pathname === '/mails') {
    const to = url.searchParams.get('to')
    res.end(JSON.stringify(to ? mailbox.to(to) : mailbox.mails))
    return
  }
  res.statusCode = 404
  res.end('{}')
})
server.listen(httpPort, '127.0.0.1')

const stop = () => {
  server.close()
  void mailbox.close().then(() => process.exit(0))
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
