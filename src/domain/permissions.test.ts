import { describe, expect, it } from 'vitest'
import {
  canChangeMessage,
  canInTeam,
  conversationAccess,
  promptAccess,
  teamPermissions,
} from './permissions.ts'

const user = { globalRole: 'user' } as const
const admin = { globalRole: 'global_admin' } as const

describe('team permissions', () => {
  it('give team admins everything, members only view_team_data, strangers nothing', () => {
    for (const permission of Object.keys(teamPermissions) as (keyof typeof teamPermissions)[]) {
      expect(canInTeam(user, 'admin', permission)).toBe(true)
      expect(canInTeam(user, 'member', permission)).toBe(permission === 'view_team_data')
      expect(canInTeam(user, null, permission)).toBe(false)
      expect(canInTeam(admin, null, permission)).toBe(true)
    }
  })
})

const owner = { id: 'owner', globalRole: 'user' as const }
const other = { id: 'other', globalRole: 'user' as const }
const globalAdmin = { id: 'root', globalRole: 'global_admin' as const }
const team = { ownerUserId: 'owner', teamId: 'team-1' }
const personal = { ownerUserId: 'owner', teamId: null }

describe('conversationAccess', () => {
  it.each([
    ['owner, personal', owner, personal, null, { canView: true, canManage: true, canModerate: false }],
    // Decision 0008: the team's conversation stays with the team.
    ['owner who left the team', owner, team, null, { canView: false, canManage: false, canModerate: false }],
    ['owner, team member', owner, team, 'member', { canView: true, canManage: true, canModerate: false }],
    ['owner, team admin', owner, team, 'admin', { canView: true, canManage: true, canModerate: true }],
    ['team member', other, team, 'member', { canView: true, canManage: false, canModerate: false }],
    ['team admin', other, team, 'admin', { canView: true, canManage: true, canModerate: true }],
    ['stranger', other, team, null, { canView: false, canManage: false, canModerate: false }],
    ['stranger, personal', other, personal, null, { canView: false, canManage: false, canModerate: false }],
    [
      'a team role means nothing without a team',
      other,
      personal,
      'admin',
      { canView: false, canManage: false, canModerate: false },
    ],
    ['global admin', globalAdmin, personal, null, { canView: true, canManage: true, canModerate: true }],
  ] as const)('%s', (_, actor, conversation, role, expected) => {
    expect(conversationAccess(actor, conversation, role)).toEqual(expected)
  })

  it('compares user ids with user ids, never with the role value', () => {
    const named = { id: 'user', globalRole: 'user' as const }
    expect(conversationAccess(named, { ownerUserId: 'someone', teamId: null }, null).canView).toBe(false)
  })
})

describe('canChangeMessage', () => {
  const member = { canManage: false, canModerate: false }
  const moderator = { canManage: true, canModerate: true }
  it('lets authors change their own messages and moderators everyone’s', () => {
    expect(canChangeMessage(member, 'a', { createdByUserId: 'a' })).toBe(true)
    expect(canChangeMessage(member, 'a', { createdByUserId: 'b' })).toBe(false)
    expect(canChangeMessage(member, 'a', { createdByUserId: null })).toBe(false)
    expect(canChangeMessage(moderator, 'a', { createdByUserId: 'b' })).toBe(true)
    expect(canChangeMessage(moderator, 'a', { createdByUserId: null })).toBe(true)
  })
})

describe('promptAccess', () => {
  it('gives the owner every right and anyone else none (compared by id)', () => {
    expect(promptAccess({ id: 'a' }, { ownerUserId: 'a' })).toEqual({
      edit: true,
      delete: true,
      setCurrent: true,
    })
    expect(promptAccess({ id: 'b' }, { ownerUserId: 'a' })).toEqual({
      edit: false,
      delete: false,
      setCurrent: false,
    })
  })

  it('lets the owner delete a prompt holding a protected label only as a team admin, never with a key', () => {
    const holds = { holdsProtectedLabel: true, viewerIsTeamAdmin: false }
    const deletes = (actor: Parameters<typeof promptAccess>[0], held: typeof holds) =>
      promptAccess(actor, { ownerUserId: 'a' }, held).delete
    expect(deletes({ id: 'a', globalRole: 'user' }, holds)).toBe(false)
    expect(deletes({ id: 'a', globalRole: 'user' }, { ...holds, viewerIsTeamAdmin: true })).toBe(true)
    expect(deletes({ id: 'a', globalRole: 'global_admin' }, holds)).toBe(true)
    expect(
      deletes({ id: 'a', globalRole: 'user', apiKeyId: 'k' }, { ...holds, viewerIsTeamAdmin: true }),
    ).toBe(false)
    expect(deletes({ id: 'a', globalRole: 'user' }, { ...holds, holdsProtectedLabel: false })).toBe(true)
    expect(promptAccess({ id: 'a' }, { ownerUserId: 'a' }, holds)).toMatchObject({
      edit: true,
      setCurrent: true,
    })
  })
})
