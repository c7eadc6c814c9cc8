import { readFile } from 'node:fs/promises'
import { expectNoSeriousViolationsInBothThemes } from './axe.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { ADMIN, apiOptions, expect, signInViaApi, signUpViaApi, test, uniqueEmail } from './support.ts'
import { createTeamViaApi, invitationLinkFor, inviteViaApi } from './teams-support.ts'

/**
 * The audit log on the team page: a team admin's 'Activity' tab lists what happened in
 * the team, filters it and downloads it as CSV. Checked with axe in light and dark (each screen in
 * both, e2e/axe.ts).
 */
test.describe('light and dark themes', () => {
  test.use({ reducedMotion: 'reduce', bypassCSP: true })

  test('a team admin sees the Activity tab with the rename and the invitation, filters and downloads it', async ({
    page,
  }) => {
    const adminEmail = await signUpViaApi(page)
    const team = await createTeamViaApi(page, 'Audit Crew')
    const renamed = await page.request.patch(`/api/v1/teams/${team.id}`, {
      data: { name: 'Audited Crew' },
      ...apiOptions(),
    })
    expect(renamed.status()).toBe(200)
    const invitee = uniqueEmail('invitee')
    await inviteViaApi(page, team.id, invitee)

    await page.goto(`/team/${team.id}/manage`)
    await expect(page.getByRole('heading', { level: 1, name: 'Audited Crew' })).toBeVisible()
    await page.getByRole('tab', { name: 'Activity' }).click()
    const panel = page.getByRole('region', { name: 'Activity' })
    const table = panel.getByRole('table', { name: 'Audit log entries' })
    await expect(table).toBeVisible()
    const rows = table.getByRole('row')
    // Newest first: the invitation, the rename, the creation (and the header row).
    await expect(rows).toHaveCount(4)
    await expect(rows.nth(1)).toContainText('Member invited')
    await expect(rows.nth(1)).toContainText(invitee)
    await expect(rows.nth(1)).toContainText(adminEmail)
    await expect(rows.nth(2)).toContainText('Team renamed')
    await expect(rows.nth(2)).toContainText('Audit Crew → Audited Crew')
    await expect(rows.nth(3)).toContainText('Team created')
    await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
    await expectNoSeriousViolationsInBothThemes(page, 'team activity')

    // Filtered to one action.
    await panel.getByLabel('Action').selectOption({ label: 'Team renamed' })
    await panel.getByRole('button', { name: 'Apply filters' }).click()
    await expect(rows).toHaveCount(2)
    await expect(rows.nth(1)).toContainText('Team renamed')

    // A filter nothing matches says so.
    await panel.getByLabel('Action').selectOption({ label: 'Prompt deleted' })
    await panel.getByRole('button', { name: 'Apply filters' }).click()
    await expect(panel.getByText('No entries match these filters')).toBeVisible()
    await expectNoSeriousViolationsInBothThemes(page, 'team activity, nothing found')
    await panel.getByRole('button', { name: 'Reset' }).click()
    await expect(rows).toHaveCount(4)

    // The CSV holds the same entries.
    const downloading = page.waitForEvent('download')
    await panel.getByRole('button', { name: 'Download CSV' }).click()
    const download = await downloading
    expect(download.suggestedFilename()).toMatch(/^audit-log-team-[0-9a-f]{8}-\d{4}-\d{2}-\d{2}\.csv$/)
    const csv = await readFile((await download.path())!, 'utf8')
    const lines = csv.trimEnd().split('\r\n')
    expect(lines[0]).toMatch(/^created_at,action,actor_kind,actor_email,/)
    expect(lines.slice(1).map((line) => line.split(',')[1])).toEqual([
      'member.invited',
      'team.renamed',
      'team.created',
    ])
  })

  test('a global admin filters the log by a team chosen by name; a new prompt reads as created', async ({
    page,
  }) => {
    await signInViaApi(page, ADMIN.email)
    const name = `Filter Crew ${Math.random().toString(36).slice(2, 7)}`
    const team = await createTeamViaApi(page, name)
    await createPromptViaApi(page, { title: 'Audited prompt', visibility: 'team', teamId: team.id })

    await page.goto('/admin')
    await page.getByRole('tab', { name: 'Security & Audit' }).click()
    const panel = page.getByRole('region', { name: 'Audit log' })
    const filters = panel.getByRole('form', { name: 'Filter the audit log' })
    await filters.getByLabel('Team').selectOption({ label: name })
    await filters.getByRole('button', { name: 'Apply filters' }).click()
    const rows = panel.getByRole('table', { name: 'Audit log entries' }).getByRole('row')
    // Newest first: the prompt, the team (and the header row); no label moved from nowhere.
    await expect(rows).toHaveCount(3)
    await expect(rows.nth(1)).toContainText('Prompt created')
    await expect(rows.nth(1)).toContainText(name)
    await expect(rows.nth(2)).toContainText('Team created')
    await expect(panel.getByRole('table').getByText('Label moved')).toHaveCount(0)
    await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
    await expectNoSeriousViolationsInBothThemes(page, 'global audit log filtered by team')
  })
})

test('a team member who is not an admin has no Activity tab', async ({ page, browser }) => {
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Admins Only')
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL })
  const other = await context.newPage()
  const memberEmail = await signUpViaApi(other)
  await inviteViaApi(page, team.id, memberEmail)
  const token = new URL(await invitationLinkFor(memberEmail)).pathname.split('/').pop()
  const accepted = await other.request.post(`/api/v1/invitations/${token}/accept`, apiOptions())
  expect(accepted.status()).toBe(200)
  await other.goto(`/team/${team.id}/manage`)
  await expect(other.getByRole('heading', { level: 1, name: 'Admins Only' })).toBeVisible()
  await expect(other.getByRole('tab', { name: 'Members' })).toBeVisible()
  await expect(other.getByRole('tab', { name: 'Activity' })).toHaveCount(0)
  await context.close()
})
