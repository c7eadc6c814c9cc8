import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { Entitlements, GatedAction } from '../../../domain/plans.ts'
import { ApiError } from '../../lib/api.ts'
import { render, signedInUser, stubServer } from '../../testing/render.tsx'
import { usePaywall } from './paywall.tsx'

const trial: Entitlements = {
  context: 'personal',
  teamId: null,
  state: 'trial',
  plan: 'trial',
  limits: { maxPrompts: 10, maxTeamMembers: null, apiAccess: false, webhooks: false },
  usage: { prompts: 9, teamMembers: 0 },
  trial: { daysLeft: 5, endsAt: '2026-12-01T00:00:00.000Z' },
  canWrite: true,
}

/** A screen with one gated action, asking the paywall first as the app's screens do. */
function GatedButton({
  entitlements,
  action,
  refusal,
}: {
  entitlements?: Entitlements
  action: GatedAction
  refusal?: ApiError
}) {
  const paywall = usePaywall()
  return (
    <>
      {paywall.dialog}
      <button
        type="button"
        onClick={() => paywall.allows(entitlements, action) && refusal && paywall.showIfPlanLimit(refusal)}
      >
        Go
      </button>
    </>
  )
}

describe('the paywall', () => {
  it('lets an action within the limit go on (9 of 10 prompts)', async () => {
    const { user } = render(<GatedButton entitlements={trial} action="createPrompt" />)
    await user.click(screen.getByRole('button', { name: 'Go' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('stops the 11th prompt with the limit, the usage and the way to a plan', async () => {
    const full = { ...trial, usage: { prompts: 10, teamMembers: 0 } }
    const { user } = render(<GatedButton entitlements={full} action="createPrompt" />)
    await user.click(screen.getByRole('button', { name: 'Go' }))
    const dialog = await screen.findByRole('dialog', { name: 'Limit reached' })
    expect(dialog.textContent).toContain('You have reached the limit of 10 prompts on your plan.')
    expect(
      within(dialog).getByRole('progressbar', { name: '10 of 10 prompts' }).getAttribute('aria-valuenow'),
    ).toBe('100')
    expect(within(dialog).getByRole('link', { name: 'Choose plan' }).getAttribute('href')).toBe('/billing')
    // Only a global admin may grant a plan on the spot.
    expect(within(dialog).queryByRole('button', { name: /^Grant/ })).toBeNull()
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('says a feature is not in the plan, without a usage bar', async () => {
    const { user } = render(<GatedButton entitlements={trial} action="webhooks" />)
    await user.click(screen.getByRole('button', { name: 'Go' }))
    const dialog = await screen.findByRole('dialog', { name: 'Feature not available' })
    expect(dialog.textContent).toContain('Webhooks are not included in your plan.')
    expect(within(dialog).queryByRole('progressbar')).toBeNull()
  })

  it('asks for a plan on anything that writes once the trial has ended', async () => {
    const ended = { ...trial, state: 'payment_required' as const, plan: null, canWrite: false }
    const { user } = render(<GatedButton entitlements={ended} action="editPrompt" />)
    await user.click(screen.getByRole('button', { name: 'Go' }))
    expect(await screen.findByRole('dialog', { name: 'Upgrade required' })).toBeTruthy()
  })

  it("shows the server's plan_limit refusal in the server's words when the entitlements were unknown", async () => {
    const refusal = new ApiError(
      403,
      'plan_limit',
      'This team has reached the limit of 3 prompts on its plan.',
      {
        planLimit: { context: 'team', reason: 'limit_reached', resource: 'prompts', used: 3, max: 3 },
      },
    )
    const { user } = render(<GatedButton action="createPrompt" refusal={refusal} />)
    await user.click(screen.getByRole('button', { name: 'Go' }))
    const dialog = await screen.findByRole('dialog', { name: 'Limit reached' })
    expect(dialog.textContent).toContain('This team has reached the limit of 3 prompts on its plan.')
  })

  it("lets a global admin grant the space's largest plan, then closes", async () => {
    const seen = stubServer((request) => (request.method === 'PUT' ? { body: { ok: true } } : undefined))
    const full = { ...trial, usage: { prompts: 10, teamMembers: 0 } }
    const { user } = render(<GatedButton entitlements={full} action="createPrompt" />, {
      currentUser: { ...signedInUser, globalRole: 'global_admin' },
    })
    await user.click(screen.getByRole('button', { name: 'Go' }))
    const dialog = await screen.findByRole('dialog', { name: 'Limit reached' })
    await user.click(within(dialog).getByRole('button', { name: 'Grant Pro' }))
    expect(await screen.findByText('Pro granted')).toBeTruthy()
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(seen).toEqual([
      expect.objectContaining({
        method: 'PUT',
        path: '/api/v1/admin/plans',
        body: { context: 'personal', subjectId: signedInUser.id, plan: 'pro' },
      }),
    ])
  })
})
