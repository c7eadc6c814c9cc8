import { describe, expect, it } from 'vitest'
import { type AuditEntry, auditCsv, csvCell } from './audit.ts'

describe('csvCell', () => {
  it('leaves plain text alone and empties null', () => {
    expect(csvCell('team.created')).toBe('team.created')
    expect(csvCell(null)).toBe('')
    expect(csvCell(undefined)).toBe('')
  })

  it('quotes commas, quotes and line breaks, doubling quotes (RFC 4180)', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('two\nlines')).toBe('"two\nlines"')
  })

  it('defuses what a spreadsheet would run as a formula', () => {
    expect(csvCell('=1+1')).toBe("'=1+1")
    expect(csvCell('+49 30')).toBe("'+49 30")
    expect(csvCell('-2')).toBe("'-2")
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)")
    expect(csvCell('\tx')).toBe("'\tx")
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"')
  })

  it('writes objects as JSON', () => {
    expect(csvCell({ name: 'A, B' })).toBe('"{""name"":""A, B""}"')
  })
})

describe('auditCsv', () => {
  it('has a header and one CRLF line per entry', () => {
    const entry: AuditEntry = {
      id: '00000000-0000-4000-8000-000000000000',
      createdAt: '2026-11-24T01:00:00.000000Z',
      actorKind: 'user',
      actorUserId: 'u1',
      actorApiKeyId: null,
      actorEmail: 'a@example.com',
      action: 'team.renamed',
      objectType: 'team',
      objectId: 't1',
      teamId: 't1',
      before: { name: 'Old' },
      after: { name: 'New' },
      clientAddress: '192.0.2.1',
    }
    const lines = auditCsv([entry]).split('\r\n')
    expect(lines[0]?.startsWith('created_at,action,')).toBe(true)
    expect(lines[1]).toBe(
      '2026-11-24T01:00:00.000000Z,team.renamed,user,a@example.com,u1,,team,t1,t1,192.0.2.1,"{""name"":""Old""}","{""name"":""New""}"',
    )
    expect(lines[2]).toBe('')
  })
})
