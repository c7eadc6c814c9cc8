import type { Locator, Page } from '@playwright/test'
import { expectNoSeriousViolations } from './axe.ts'
import { cutTexts } from './layout-support.ts'
import { createPromptViaApi, saveBodyViaApi } from './prompts-support.ts'
import { shot } from './shots.ts'
import { apiOptions, expect, signUpViaApi, test, uniqueEmail } from './support.ts'
import { createTeamViaApi, invitationLinkFor, inviteViaApi } from './teams-support.ts'

// Every screen is checked in English light and German dark: the words differ in length.
test.slow()
// axe is put into the page as a script, which the app's CSP would refuse.
test.use({ bypassCSP: true })

async function settled(page: Page) {
  await expect(page.locator('[aria-busy="true"], .animate-pulse')).toHaveCount(0)
}

async function boxOf(locator: Locator) {
  const box = await locator.boundingBox()
  if (!box) throw new Error('not rendered')
  return box
}

const overlaps = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

const variants = [
  {
    name: 'en-light',
    use: { locale: 'en-US', colorScheme: 'light' as const, reducedMotion: 'reduce' as const },
    text: {
      labels: 'Labels',
      recent: 'My Prompts (Recent)',
      viewAll: 'View all',
      pulse: 'Your pulse',
      sent: 'Invitation sent',
      resend: (email: string) => `Resend the invitation to ${email}`,
      revoke: (email: string) => `Revoke the invitation to ${email}`,
      roleOf: (email: string) => `Role of ${email}`,
      onlyAdminRole: 'The only admin keeps the admin role until another member is admin.',
      leave: 'Leave team',
      onlyAdminLeave: 'You are the only admin: make another member admin before you leave.',
      signInCode: 'Sign in with an emailed code',
      codeSentTo: (email: string) => `We sent a 6-digit code to ${email}`,
    },
  },
  {
    name: 'de-dark',
    use: { locale: 'de-DE', colorScheme: 'dark' as const, reducedMotion: 'reduce' as const },
    text: {
      labels: 'Labels',
      recent: 'Meine Prompts (neueste)',
      viewAll: 'Alle anzeigen',
      pulse: 'Dein Puls',
      sent: 'Einladung gesendet',
      resend: (email: string) => `Einladung an ${email} erneut senden`,
      revoke: (email: string) => `Einladung an ${email} widerrufen`,
      roleOf: (email: string) => `Rolle von ${email}`,
      onlyAdminRole: 'Der einzige Admin bleibt Admin, bis ein anderes Mitglied Admin ist.',
      leave: 'Team verlassen',
      onlyAdminLeave:
        'Du bist der einzige Admin: Mach zuerst ein anderes Mitglied zum Admin, bevor du gehst.',
      signInCode: 'Mit Code per E-Mail anmelden',
      codeSentTo: (email: string) => `Wir haben einen 6-stelligen Code an ${email} gesendet`,
    },
  },
]

for (const variant of variants) {
  const { text } = variant
  test.describe(variant.name, () => {
    test.use(variant.use)

    test('the label version choice shows its labels whole', async ({ page }) => {
      await signUpViaApi(page)
      const prompt = await createPromptViaApi(page, { title: 'Layout check' })
      await saveBodyViaApi(page, prompt.id, 'Second text.')
      const third = await saveBodyViaApi(page, prompt.id, 'Third text.')
      const res = await page.request.put(`/api/v1/prompts/${prompt.id}/labels`, {
        data: { label: 'staging', versionId: third.currentVersionId },
        ...apiOptions(),
      })
      expect(res.status(), await res.text()).toBe(200)
      await page.goto(`/prompts/${prompt.id}`)
      // The detail page's first visit compiles its editor: slow on a loaded machine.
      await expect(page.getByRole('heading', { level: 1, name: 'Layout check' })).toBeVisible({
        timeout: 30_000,
      })
      const choice = page.getByRole('region', { name: text.labels }).getByRole('combobox')
      await expect(choice.locator('option').first()).toHaveText('v3 (production, latest, staging)')
      expect(await cutTexts(choice)).toEqual([])
      await settled(page)
      await expectNoSeriousViolations(page, `prompt labels (${variant.name})`)
      await shot(page, `labels-${variant.name}`)
    })

    test('the dashboard keeps "View all" on its title row and lays every pulse row out alike', async ({
      page,
    }) => {
      await signUpViaApi(page)
      await createPromptViaApi(page, { title: 'A prompt with a rather long title to fill the card' })
      await page.goto('/')
      const recent = page.getByRole('region', { name: text.recent })
      // The first visit loads the app: slow on a loaded machine.
      await expect(recent).toBeVisible({ timeout: 30_000 })
      const title = recent.getByRole('heading', { name: text.recent })
      const viewAll = recent.getByRole('link', { name: text.viewAll })
      await expect(viewAll).toBeVisible()
      const [titleBox, viewAllBox] = [await boxOf(title), await boxOf(viewAll)]
      expect(viewAllBox.y, '"View all" starts above the title’s bottom').toBeLessThan(
        titleBox.y + titleBox.height,
      )
      expect(viewAllBox.x).toBeGreaterThan(titleBox.x)

      const rows = page.getByRole('region', { name: text.pulse }).locator('dl > div')
      await expect(rows).toHaveCount(3)
      const layouts = await rows.evaluateAll((divs) =>
        divs.map((row) => {
          const top = row.getBoundingClientRect().top
          const [name, number, previous] = [...row.children].map((child) => child.getBoundingClientRect())
          return {
            numberRight: Math.round(number?.right ?? 0),
            previousBelow: Math.round((previous?.top ?? 0) - top) > Math.round((name?.bottom ?? 0) - top) - 1,
            previousLeft: Math.round(previous?.left ?? 0),
          }
        }),
      )
      for (const layout of layouts) expect(layout).toEqual(layouts[0])
      expect(layouts[0]?.previousBelow).toBe(true)
      await settled(page)
      await expectNoSeriousViolations(page, `dashboard (${variant.name})`)
      await shot(page, `dashboard-${variant.name}`)
    })

    test('the "Invitation sent" toast covers no invitation’s buttons', async ({ page }) => {
      await signUpViaApi(page)
      const team = await createTeamViaApi(page, 'Toasters')
      const email = uniqueEmail('toast')
      await inviteViaApi(page, team.id, email)
      await page.goto(`/team/${team.id}/manage#invites`)
      const resend = page.getByRole('button', { name: text.resend(email) })
      const revoke = page.getByRole('button', { name: text.revoke(email) })
      await resend.click()
      // The toast itself (an <li>), not the screen reader's copy of its text.
      const toast = page.locator('li').filter({ hasText: text.sent })
      await expect(toast).toBeVisible()
      const toastBox = await boxOf(toast)
      expect(overlaps(toastBox, await boxOf(resend)), 'toast over Resend').toBe(false)
      expect(overlaps(toastBox, await boxOf(revoke)), 'toast over Revoke').toBe(false)
      await shot(page, `invitation-toast-${variant.name}`)
    })

    test('the only admin sees their role and "Leave team" disabled, with the reason', async ({ page }) => {
      const me = await signUpViaApi(page)
      const team = await createTeamViaApi(page, 'Solo')
      await page.goto(`/team/${team.id}/manage`)
      const role = page.getByLabel(text.roleOf(me))
      await expect(role).toBeVisible({ timeout: 30_000 })
      await expect(role).toBeDisabled()
      await expect(role).toHaveAccessibleDescription(text.onlyAdminRole)
      await expect(page.getByText(text.onlyAdminRole)).toBeVisible()
      const leave = page.getByRole('button', { name: text.leave })
      await expect(leave).toBeDisabled()
      await expect(leave).toHaveAccessibleDescription(text.onlyAdminLeave)
      await expect(page.getByText(text.onlyAdminLeave)).toBeVisible()
      await settled(page)
      await expectNoSeriousViolations(page, `team manage, only admin (${variant.name})`)
      await shot(page, `only-admin-${variant.name}`)
    })

    test('the invitation offers every way in; the code mail’s link opens the code step', async ({
      page,
      browser,
    }) => {
      await signUpViaApi(page)
      const team = await createTeamViaApi(page, 'Welcomers')
      const email = uniqueEmail('ways')
      await inviteViaApi(page, team.id, email)
      const link = await invitationLinkFor(email)
      const context = await browser.newContext({ ...variant.use, bypassCSP: true })
      const visitor = await context.newPage()
      await visitor.goto(link)
      await expect(visitor.getByRole('link', { name: text.signInCode })).toBeVisible()
      await expectNoSeriousViolations(visitor, `invitation, signed out (${variant.name})`)
      await shot(visitor, `invitation-${variant.name}`)
      const step = new URL('/login', link)
      step.search = new URLSearchParams({ email, step: 'code', next: new URL(link).pathname }).toString()
      await visitor.goto(step.toString())
      await expect(visitor.getByText(text.codeSentTo(email))).toBeVisible()
      await expectNoSeriousViolations(visitor, `code step from the mail (${variant.name})`)
      await shot(visitor, `code-step-${variant.name}`)
      await context.close()
    })
  })
}
