import { describe, expect, it } from 'vitest'
import { canGlobally, canInTeam, teamPermissions } from './team-permissions.ts'

const user = { globalRole: 'user' } as const
const admin = { globalRole: 'global_admin' } as const

describe('team permissions (§6)', () => {
  it('give team admins everything, members only view_team_data, strangers nothing', () => {
    for (const permission of Object.keys(teamPermissions) as (keyof typeof teamPermissions)[]) {
      expect(canInTeam(user, 'admin', permission)).toBe(true)
      expect(canInTeam(user, 'member', permission)).toBe(permission === 'view_team_data')
      expect(canInTeam(user, null, permission)).toBe(false)
      expect(canInTeam(admin, null, permission)).toBe(true)
    }
  })

  it('give global permissions to global admins only', () => {
    expect(canGlobally(admin, 'view_all_users')).toBe(true)
    expect(canGlobally(user, 'view_all_users')).toBe(false)
  })
})
