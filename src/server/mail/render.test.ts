import { describe, expect, it } from 'vitest'
import { renderMail } from './render.ts'

describe('renderMail', () => {
  it('renders text and HTML in the recipient language, escaping every value in the HTML', () => {
    const mail = renderMail({
      locale: 'de',
      subject: 'mail.test.subject',
      intro: [['mail.test.body', { admin: '<script>alert(1)</script>' }]],
      action: { label: 'mail.reset.action', url: 'https://app.example/auth/confirm?a=1&b="2"' },
      appUrl: 'https://app.example',
    })
    expect(mail.subject).toBe('Promptfolio-Test-E-Mail')
    expect(mail.text).toContain('<script>alert(1)</script>')
    expect(mail.text).toContain('Neues Passwort wählen: https://app.example/auth/confirm?a=1&b="2"')
    expect(mail.html).not.toContain('<script>')
    expect(mail.html).toContain('&#60;script&#62;')
    expect(mail.html).toContain('href="https://app.example/auth/confirm?a=1&#38;b=&#34;2&#34;"')
    expect(mail.html).toContain('<html lang="de">')
  })

  it('shows a code on a line of its own in the text part', () => {
    const mail = renderMail({
      locale: 'en',
      subject: 'mail.code.subject',
      intro: [['mail.code.intro']],
      code: '042917',
      appUrl: 'http://localhost:3000',
    })
    expect(mail.text).toMatch(/^042917$/m)
  })

  it("shows others' values as one escaped line of at most 60 characters, labelled", () => {
    const mail = renderMail({
      locale: 'en',
      subject: 'teams.mail.subject',
      intro: [['teams.mail.body']],
      details: [['teams.mail.detailTeam', `<b>Team</b>\r\nSecond line ${'x'.repeat(80)}`]],
      appUrl: 'http://localhost:3000',
    })
    const line = mail.text.split('\n').find((text) => text.startsWith('Team: '))!
    expect(line).toBe(`Team: "<b>Team</b> Second line ${'x'.repeat(59 - 24)}…"`)
    expect(mail.html).toContain('&#60;b&#62;Team&#60;/b&#62; Second line')
    expect(mail.html).not.toContain('<b>Team')
  })
})
