import { screen, within } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { PROMPT_LIMITS } from '../../../domain/prompts.ts'
import type { TeamSummary } from '../../../domain/teams.ts'
import { render, stubServer } from '../../testing/render.tsx'
import {
  emptyPromptForm,
  PromptFields,
  PromptFormActions,
  type PromptFormOutput,
  usePromptForm,
} from './prompt-form.tsx'
import { VariableLint, VariablesPanel } from './variables-panel.tsx'

function team(id: string, name: string): TeamSummary {
  return {
    id,
    name,
    role: 'member',
    isAdmin: false,
    memberCount: 2,
    createdAt: '2026-01-01T00:00:00.000Z',
    access: {} as TeamSummary['access'],
  }
}
const support = team('11111111-1111-4111-8111-111111111111', 'Support')
const sales = team('22222222-2222-4222-8222-222222222222', 'Sales')

/** The create page's form as the page lays it out: fields, the variables beside them, actions. */
function CreateForm({ onSubmit }: { onSubmit: (values: PromptFormOutput) => void }) {
  const form = usePromptForm(emptyPromptForm)
  return (
    <form onSubmit={form.handleSubmit(onSubmit)} noValidate>
      <PromptFields form={form} withType />
      <VariablesPanel form={form} />
      <PromptFormActions
        form={form}
        submitLabel="Create Prompt"
        submittingLabel="Creating..."
        cancelTo="/"
        blankHint="Fill in title and prompt content to create"
        notices={<VariableLint form={form} />}
      />
    </form>
  )
}

function renderForm(teams: TeamSummary[] = []) {
  stubServer((request) =>
    request.path === '/api/v1/teams' ? { body: { items: teams, nextCursor: null } } : undefined,
  )
  const onSubmit = vi.fn()
  return { ...render(<CreateForm onSubmit={onSubmit} />), onSubmit }
}

const submit = () => screen.getByRole('button', { name: 'Create Prompt' })

describe('the prompt form', () => {
  it('can be submitted only with a title and content, and says so', async () => {
    const { user } = renderForm()
    expect(submit()).toHaveProperty('disabled', true)
    expect(screen.getByText('Fill in title and prompt content to create')).toBeTruthy()
    await user.type(screen.getByLabelText('Title'), 'Summary')
    expect(submit()).toHaveProperty('disabled', true)
    // Blank content is no content.
    await user.type(screen.getByLabelText('Prompt Content'), '   ')
    expect(submit()).toHaveProperty('disabled', true)
    await user.type(screen.getByLabelText('Prompt Content'), 'Summarise.')
    expect(submit()).toHaveProperty('disabled', false)
    expect(screen.queryByText('Fill in title and prompt content to create')).toBeNull()
  })

  it("caps each field at the domain's limits", () => {
    renderForm()
    expect(screen.getByLabelText('Title').getAttribute('maxlength')).toBe(String(PROMPT_LIMITS.title))
    expect(screen.getByLabelText('Description').getAttribute('maxlength')).toBe(
      String(PROMPT_LIMITS.description),
    )
    expect(screen.getByLabelText('Prompt Content').getAttribute('maxlength')).toBe(String(PROMPT_LIMITS.body))
  })

  it('refuses a bad name and a config that is not a JSON object, next to each field', async () => {
    const { user, onSubmit } = renderForm()
    await user.type(screen.getByLabelText('Title'), 'Summary')
    await user.type(screen.getByLabelText('Prompt Content'), 'Summarise.')
    await user.type(screen.getByLabelText('Name'), 'support//triage')
    await user.click(screen.getByText('Config (optional)'))
    await user.click(screen.getByLabelText('Config (JSON)'))
    await user.paste('[1, 2]')
    await user.click(submit())
    expect(
      await screen.findByText('Name may not contain "|" or HTML, and folders (a/b) may not be empty'),
    ).toBeTruthy()
    expect(screen.getByText('Config must be a JSON object')).toBeTruthy()
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true')
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('hands over the parsed values: blank name and description as none, the config as an object', async () => {
    const { user, onSubmit } = renderForm()
    await user.type(screen.getByLabelText('Title'), '  Summary  ')
    await user.type(screen.getByLabelText('Prompt Content'), 'Summarise.')
    await user.click(screen.getByText('Config (optional)'))
    await user.click(screen.getByLabelText('Config (JSON)'))
    await user.paste('{"temperature": 0.2}')
    await user.click(submit())
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
    expect(onSubmit.mock.calls[0]![0]).toMatchObject({
      title: 'Summary',
      name: null,
      description: null,
      body: 'Summarise.',
      visibility: 'private',
      type: 'text',
      config: { temperature: 0.2 },
      tags: [],
      variables: [],
    })
  })

  it('offers team visibility only to members of a team', async () => {
    renderForm([])
    expect(
      await screen.findByText('You are not in a team yet. Join or create one to share prompts with it.'),
    ).toBeTruthy()
    expect(screen.getByRole('radio', { name: /^Team/ })).toHaveProperty('disabled', true)
  })

  it('shares with the one team there is without asking, and asks which team when there are several', async () => {
    const one = renderForm([support])
    await one.user.click(await screen.findByRole('radio', { name: /^Team/ }))
    await one.user.type(screen.getByLabelText('Title'), 'Summary')
    await one.user.type(screen.getByLabelText('Prompt Content'), 'Summarise.')
    await one.user.click(submit())
    await vi.waitFor(() => expect(one.onSubmit).toHaveBeenCalledOnce())
    expect(one.onSubmit.mock.calls[0]![0]).toMatchObject({ visibility: 'team', teamId: support.id })
    one.unmount()

    const several = renderForm([support, sales])
    await several.user.click(await screen.findByRole('radio', { name: /^Team/ }))
    await several.user.type(screen.getByLabelText('Title'), 'Summary')
    await several.user.type(screen.getByLabelText('Prompt Content'), 'Summarise.')
    await several.user.click(submit())
    expect(await screen.findByText('Choose a team to share this prompt with')).toBeTruthy()
    expect(several.onSubmit).not.toHaveBeenCalled()
    await several.user.selectOptions(screen.getByLabelText('Team'), 'Sales')
    await several.user.click(submit())
    await vi.waitFor(() => expect(several.onSubmit).toHaveBeenCalledOnce())
    expect(several.onSubmit.mock.calls[0]![0]).toMatchObject({ teamId: sales.id })
  })

  it('keeps what was written when the type changes: text becomes a system message and back', async () => {
    const { user } = renderForm()
    await user.type(screen.getByLabelText('Prompt Content'), 'You are terse.')
    await user.click(screen.getByRole('radio', { name: /^Chat/ }))
    expect(screen.queryByLabelText('Prompt Content')).toBeNull()
    expect(screen.getByDisplayValue('You are terse.')).toBeTruthy()
    await user.click(screen.getByRole('radio', { name: /^Text/ }))
    expect((screen.getByLabelText('Prompt Content') as HTMLTextAreaElement).value).toContain('You are terse.')
  })
})

describe("the prompt's variables", () => {
  it('lists the variables the content uses and, once any is declared, lints the rest', async () => {
    const { user } = renderForm()
    const panel = within(screen.getByRole('region', { name: 'Variables' }))
    expect(panel.getByText('No variables yet.')).toBeTruthy()
    await user.click(screen.getByLabelText('Prompt Content'))
    await user.paste('Write about {{topic}} in a {{tone}} tone for {audience}.')
    expect(panel.getByRole('button', { name: 'Declare: topic' })).toBeTruthy()
    expect(panel.getByRole('button', { name: 'Declare: tone' })).toBeTruthy()
    // Single braces are a slip whether or not anything is declared.
    expect(screen.getByText(/Single braces are not variables: \{audience\}/)).toBeTruthy()
    expect(screen.queryByText(/Used but not declared/)).toBeNull()

    await user.click(panel.getByRole('button', { name: 'Declare: topic' }))
    const declared = within(panel.getByRole('listitem', { name: 'topic' }))
    expect(declared.getByText('used in the prompt')).toBeTruthy()
    expect(screen.getByText('Used but not declared: tone')).toBeTruthy()

    await user.clear(screen.getByLabelText('Prompt Content'))
    await user.type(screen.getByLabelText('Prompt Content'), 'No variables now.')
    expect(declared.getByText('not used')).toBeTruthy()
    expect(screen.getByText('Declared but not used: topic')).toBeTruthy()
    await user.click(declared.getByRole('button', { name: 'Remove topic' }))
    expect(panel.getByText('No variables yet.')).toBeTruthy()
    expect(screen.queryByText('Check before saving')).toBeNull()
  })

  it('saves a declaration with its type, typed default and choice values', async () => {
    const { user, onSubmit } = renderForm()
    await user.type(screen.getByLabelText('Title'), 'Summary')
    await user.click(screen.getByLabelText('Prompt Content'))
    await user.paste('Tone: {{tone}}, length: {{words}}')
    const panel = within(screen.getByRole('region', { name: 'Variables' }))
    await user.click(panel.getByRole('button', { name: 'Declare: words' }))
    const words = within(panel.getByRole('listitem', { name: 'words' }))
    await user.selectOptions(words.getByLabelText('Type'), 'Number')
    await user.type(words.getByLabelText('Default'), '120')
    await user.click(words.getByLabelText('Required'))
    await user.click(panel.getByRole('button', { name: 'Declare: tone' }))
    const tone = within(panel.getByRole('listitem', { name: 'tone' }))
    await user.selectOptions(tone.getByLabelText('Type'), 'Choice')
    await user.type(tone.getByLabelText('Allowed values (comma-separated)'), 'formal, casual')
    await user.click(submit())
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledOnce())
    expect(onSubmit.mock.calls[0]![0].variables).toEqual([
      expect.objectContaining({ name: 'words', type: 'number', default: 120, required: true }),
      expect.objectContaining({ name: 'tone', type: 'enum', values: ['formal', 'casual'] }),
    ])
  })
})
