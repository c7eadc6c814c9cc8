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

  it("give a request an API key made nothing in any team, a global admin's key included", () => {
    for (const permission of Object.keys(teamPermissions) as (keyof typeof teamPermissions)[]) {
      expect(canInTeam({ ...user, apiKeyId: 'key' }, 'admin', permission)).toBe(false)
      expect(canInTeam({ ...admin, apiKeyId: 'key' }, null, permission)).toBe(false)
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
  const all = { edit: true, delete: true, setCurrent: true }
  const none = { edit: false, delete: false, setCurrent: false }
  const user = (id: string) => ({ id, globalRole: 'user' as const })
  const personal = {
    ownerUserId: 'a',
    visibility: 'private' as const,
    ownerIsMember: false,
    viewerTeamRole: null,
  }
  const team = (ownerIsMember: boolean, viewerTeamRole: 'admin' | 'member' | null) => ({
    ownerUserId: 'a',
    visibility: 'team' as const,
    ownerIsMember,
    viewerTeamRole,
  })

  it('gives the owner every right and anyone else none (compared by id)', () => {
    expect(promptAccess(user('a'), personal)).toEqual(all)
    expect(promptAccess(user('b'), personal)).toEqual(none)
  })

  it("keeps a team prompt's owner rights only while the owner is a member of its team", () => {
    expect(promptAccess(user('a'), team(true, 'member'))).toEqual(all)
    expect(promptAccess(user('a'), team(false, null))).toEqual(none)
  })

  it("hands a former member's team prompt to the team's admins, and only then", () => {
    expect(promptAccess(user('b'), team(false, 'admin'))).toEqual(all)
    expect(promptAccess(user('b'), team(false, 'member'))).toEqual(none)
    expect(promptAccess(user('b'), team(true, 'admin'))).toEqual(none)
    expect(promptAccess({ id: 'g', globalRole: 'global_admin' }, team(false, null))).toEqual(none)
  })

  it('lets the owner delete a prompt holding a protected label only as a team admin, never with a key', () => {
    const holds = { holdsProtectedLabel: true }
    const ownTeamPrompt = (role: 'admin' | 'member') => ({
      ownerUserId: 'a',
      visibility: 'team' as const,
      ownerIsMember: true,
      viewerTeamRole: role,
    })
    const deletes = (actor: Parameters<typeof promptAccess>[0], role: 'admin' | 'member', held = holds) =>
      promptAccess(actor, ownTeamPrompt(role), held).delete
    expect(deletes({ id: 'a', globalRole: 'user' }, 'member')).toBe(false)
    expect(deletes({ id: 'a', globalRole: 'user' }, 'admin')).toBe(true)
    expect(deletes({ id: 'a', globalRole: 'global_admin' }, 'member')).toBe(true)
    expect(deletes({ id: 'a', globalRole: 'user', apiKeyId: 'k' }, 'admin')).toBe(false)
    expect(deletes({ id: 'a', globalRole: 'user' }, 'member', { holdsProtectedLabel: false })).toBe(true)
    expect(promptAccess({ id: 'a', globalRole: 'user' }, ownTeamPrompt('member'), holds)).toMatchObject({
      edit: true,
      setCurrent: true,
    })
  })
})
