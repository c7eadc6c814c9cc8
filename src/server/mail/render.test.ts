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
    expect(line).toBe(`Team: "<b>Team<\u2215b> Second line ${'x'.repeat(59 - 24)}…"`)
    expect(mail.html).toContain('&#60;b&#62;Team&#60;\u2215b&#62; Second line')
    expect(mail.html).not.toContain('<b>Team')
  })

  it("never lets others' values become links: no URL, www. or domain pattern survives, in text or HTML", () => {
    const name = 'See https://evil.example/x, www.evil.example, evil.example'
    const mail = renderMail({
      locale: 'en',
      subject: 'teams.mail.subject',
      intro: [['teams.mail.body']],
      details: [
        ['teams.mail.detailTeam', name],
        ['teams.mail.detailInviter', 'ada@example.com'],
      ],
      action: { label: 'teams.mail.action', url: 'http://localhost:3000/invite/abc' },
      appUrl: 'http://localhost:3000',
    })
    const line = mail.text.split('\n').find((text) => text.startsWith('Team: '))!
    const linkish = /[a-z]+:\/\/|www\.|[\p{L}\p{N}-]+\.[\p{L}]{2,}/iu
    expect(line).not.toMatch(linkish)
    expect(line).toBe(
      'Team: "See https:\u2215\u2215evil\u2024example\u2215x, www\u2024evil\u2024example, evil\u2024example"',
    )
    const cell = /<td[^>]*>([^<]*)<\/td>/.exec(mail.html)![1]!
    expect(cell).not.toMatch(linkish)
    expect(mail.html).not.toContain('evil.example')
    // The inviter's address stays an address; the server's own link stays a link.
    expect(mail.text).toContain('Invited by: "ada@example.com"')
    expect(mail.html).toContain('href="http://localhost:3000/invite/abc"')
  })
})
