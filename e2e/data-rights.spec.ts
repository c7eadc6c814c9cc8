import { readFileSync } from 'node:fs'
import { unzipSync } from 'fflate'
import { expectNoSeriousViolations } from './axe.ts'
import { createPromptViaApi } from './prompts-support.ts'
import { apiOptions, appOrigin, expect, PASSWORD, signUpViaApi, test } from './support.ts'
import { createTeamViaApi, createTeamWithMemberViaApi } from './teams-support.ts'

// axe-core is put into the page as a script, which the app's CSP refuses without this.
test.use({ bypassCSP: true })

test('export my data as a zip, then delete my account: sign-in is refused afterwards', async ({ page }) => {
  const email = await signUpViaApi(page)
  await createPromptViaApi(page, { title: 'Keep me', name: 'notes/keep', body: 'Remember this' })
  await page.goto('/settings/data')
  const exportCard = page.getByRole('region', { name: 'Export my data' })
  await exportCard.getByRole('button', { name: 'Start export' }).click()
  await expect(exportCard.getByText('Ready. It can be downloaded once.')).toBeVisible()
  const downloading = page.waitForEvent('download')
  await exportCard.getByRole('button', { name: 'Download export' }).click()
  const download = await downloading
  expect(download.suggestedFilename()).toMatch(/^promptfolio-export-\d{4}-\d{2}-\d{2}\.zip$/)
  const files = unzipSync(readFileSync((await download.path())!))
  const archive = JSON.parse(new TextDecoder().decode(files['promptfolio-export.json']!))
  expect(archive.profile.email).toBe(email)
  expect(archive.prompts[0]).toMatchObject({ name: 'notes/keep', versions: [{ body: 'Remember this' }] })
  expect(new TextDecoder().decode(files['prompts/notes/keep.md']!)).toContain('title: "Keep me"')
  await expect(exportCard.getByRole('button', { name: 'Start export' })).toBeVisible()
  await expectNoSeriousViolations(page, 'profile with data rights')

  const deleteCard = page.getByRole('region', { name: 'Delete my account' })
  await expect(deleteCard).toContainText('Your 1 personal prompt is deleted')
  await deleteCard.getByRole('button', { name: 'Delete my account' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete your account for good?' })
  await dialog.getByLabel('Your password').fill('not my password')
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(dialog.getByText('The password or code is not correct')).toBeVisible()
  await dialog.getByLabel('Your password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Delete my account' }).click()
  await expect(page).toHaveURL(/\/login/)

  const signIn = await page.request.post('/api/v1/auth/sign-in', {
    data: { email, password: PASSWORD },
    ...apiOptions(),
  })
  expect(signIn.status()).toBe(401)
})

test('a team’s only admin is told to hand the team over before deleting the account', async ({ page }) => {
  await signUpViaApi(page)
  const team = await createTeamViaApi(page, 'Solo crew')
  await page.goto('/settings/data')
  const deleteCard = page.getByRole('region', { name: 'Delete my account' })
  await expect(deleteCard).toContainText('You are the only admin of these teams')
  await expect(deleteCard.getByRole('link', { name: 'Solo crew' })).toHaveAttribute(
    'href',
    `/team/${team.id}/manage`,
  )
  await expect(deleteCard.getByRole('button', { name: 'Delete my account' })).toBeDisabled()
})

test('a team admin deletes the team by typing its name; its prompts go with it', async ({
  page,
  browser,
}) => {
  await signUpViaApi(page)
  const memberContext = await browser.newContext({ baseURL: appOrigin() })
  const member = await memberContext.newPage()
  const memberEmail = await signUpViaApi(member)
  const team = await createTeamWithMemberViaApi(page, 'Short-lived', { page: member, email: memberEmail })
  const prompt = await createPromptViaApi(page, { title: 'Team note', visibility: 'team', teamId: team.id })

  await page.goto(`/team/${team.id}/manage`)
  await page.getByRole('tab', { name: 'Settings' }).click()
  await page.getByRole('region', { name: 'Delete team' }).getByRole('button', { name: 'Delete team' }).click()
  const dialog = page.getByRole('dialog', { name: 'Delete “Short-lived”?' })
  const confirm = dialog.getByRole('button', { name: 'Delete team' })
  await expect(confirm).toBeDisabled()
  await dialog.getByLabel('Type Short-lived to confirm').fill('Short-lived')
  await confirm.click()
  await expect(page).not.toHaveURL(/manage/)
  await expect(page.getByText('Team “Short-lived” deleted').first()).toBeVisible()
  expect((await page.request.get(`/api/v1/prompts/${prompt.id}`)).status()).toBe(404)

  // A member sees no delete button.
  expect((await member.request.get(`/api/v1/teams/${team.id}`)).status()).toBe(404)
  await memberContext.close()
})
