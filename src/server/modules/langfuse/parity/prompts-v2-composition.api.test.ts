import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp, type TestApp } from '../../../testing/test-app.ts'
import { newProject, type Project, tag, unique } from './harness.ts'

/**
 * The composition ("prompt composability") and DELETE cases of langfuse/langfuse
 * web/src/__tests__/server/prompts.v2.servertest.ts, written anew against our API. Names Langfuse
 * fixes ("child-prompt") get a suffix here so the cases can share one space.
 */
const base = '/api/public/v2/prompts'
let testApp: TestApp
let project: Project

beforeAll(async () => {
  testApp = await createTestApp()
  project = await newProject(testApp)
})
afterAll(() => testApp.close())

const path = (name: string, query = '') => `${base}/${encodeURIComponent(name)}${query}`
const text = (name: string, prompt: string, labels: string[] = ['production']) =>
  project.create({ name, prompt, type: 'text', labels })
const fetchPrompt = (name: string, query = '') => project.call('GET', path(name, query))

describe('prompt composability', () => {
  // prompts.v2.servertest.ts › "can create a prompt with dependencies linked via label" (its
  // look into the promptDependency table is our recordDependencies, seen through the answers)
  it('creates a prompt that includes another by label, and follows the label', async () => {
    const child = unique('child-prompt')
    const parent = unique('parent-prompt')
    await text(child, 'I am a child prompt')
    const created = await project.call('POST', base, {
      name: parent,
      prompt: `Parent prompt with dependency: ${tag(child, 'label=production')}`,
      type: 'text',
    })
    expect(created.status).toBe(201)
    const first = await fetchPrompt(parent, '?version=1')
    expect(first.status).toBe(200)
    const parentId = first.body.id as string
    expect(first.body.resolutionGraph).toEqual({
      root: { name: parent, version: 1, id: parentId },
      dependencies: { [parentId]: [{ name: child, version: 1, id: expect.any(String) }] },
    })
    expect(first.body.prompt).toBe('Parent prompt with dependency: I am a child prompt')
    await text(child, 'I am an updated child prompt')
    const second = await fetchPrompt(parent, '?version=1')
    expect(second.body.prompt).toBe('Parent prompt with dependency: I am an updated child prompt')
    expect(second.body.resolutionGraph).toEqual({
      root: { name: parent, version: 1, id: parentId },
      dependencies: { [parentId]: [{ name: child, version: 2, id: expect.any(String) }] },
    })
    const list = await project.call<{ data: { versions: number[] }[] }>(
      'GET',
      `${base}?name=${encodeURIComponent(child)}`,
    )
    expect(list.body.data[0]!.versions).toHaveLength(2)
  })

  // prompts.v2.servertest.ts › "resolves prompt dependencies correctly when linked via label"
  it('resolves nested dependencies linked by label', async () => {
    const [leaf, middle, top] = [unique('nested-child'), unique('intermediate'), unique('nested-parent')]
    await text(leaf, 'Nested child content')
    await text(middle, `Intermediate with dependency: ${tag(leaf, 'label=production')}`)
    await text(top, `Parent with nested dependency: ${tag(middle, 'label=production')}`)
    const res = await fetchPrompt(top, '?version=1')
    expect(res.status).toBe(200)
    expect(res.body.prompt).toBe(
      'Parent with nested dependency: Intermediate with dependency: Nested child content',
    )
  })

  // prompts.v2.servertest.ts › "resolves prompt dependencies correctly when linked via version"
  it('resolves a dependency linked by version', async () => {
    const [child, parent] = [unique('version-linked-child'), unique('version-linked-parent')]
    await text(child, 'Version 1 content')
    await text(parent, `Parent with version dependency: ${tag(child, 'version=1')}`)
    const res = await fetchPrompt(parent, '?version=1')
    expect(res.status).toBe(200)
    expect(res.body.prompt).toBe('Parent with version dependency: Version 1 content')
    expect(res.body.prompt).not.toContain('@@@langfusePrompt')
  })

  // prompts.v2.servertest.ts › "detects circular dependencies"
  it('refuses a circular dependency', async () => {
    const [a, b] = [unique('circular-a'), unique('circular-b')]
    await text(a, 'Prompt A initial content')
    await text(b, `Prompt B with dependency: ${tag(a, 'label=production')}`)
    const res = await project.call('POST', base, {
      name: a,
      prompt: `Prompt A with dependency: ${tag(b, 'label=production')}`,
      type: 'text',
      labels: ['production'],
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body).toLowerCase()).toContain('circular')
  })

  // prompts.v2.servertest.ts › "handles deeply nested dependencies (3+ levels)"
  it('resolves dependencies three levels deep', async () => {
    const [a, b, two, one] = [unique('level-3-a'), unique('level-3-b'), unique('level-2'), unique('level-1')]
    await text(a, 'Level 3 A content')
    await text(b, 'Level 3 B content')
    await text(
      two,
      `Level 2 with dependencies: ${tag(a, 'label=production')} and ${tag(b, 'label=production')}`,
    )
    await text(one, `Level 1 with dependency: ${tag(two, 'label=production')}`)
    const res = await fetchPrompt(one, '?version=1')
    expect(res.status).toBe(200)
    expect(res.body.prompt).toBe(
      'Level 1 with dependency: Level 2 with dependencies: Level 3 A content and Level 3 B content',
    )
  })

  // prompts.v2.servertest.ts › "handles multiple dependencies at the same level"
  it('resolves several dependencies of one prompt', async () => {
    const [a, b, c, parent] = [
      unique('child-a'),
      unique('child-b'),
      unique('child-c'),
      unique('multi-parent'),
    ]
    await text(a, 'Child A content')
    await text(b, 'Child B content')
    await text(c, 'Child C content')
    await text(
      parent,
      `Parent prompt with multiple dependencies: First: ${tag(a, 'label=production')} Second: ${tag(b, 'label=production')} Third: ${tag(c, 'label=production')}`,
    )
    const res = await fetchPrompt(parent, '?version=1')
    expect(res.body.prompt).toBe(
      'Parent prompt with multiple dependencies: First: Child A content Second: Child B content Third: Child C content',
    )
  })

  // prompts.v2.servertest.ts › "handles version-specific dependencies"
  it('resolves the version a dependency names, not production', async () => {
    const [child, parent] = [unique('versioned-child'), unique('version-parent')]
    await text(child, 'Version 1 content')
    await text(child, 'Version 2 content')
    await text(parent, `Parent with version dependency: ${tag(child, 'version=1')}`)
    const res = await fetchPrompt(parent, '?version=1')
    expect(res.body.prompt).toBe('Parent with version dependency: Version 1 content')
  })

  // prompts.v2.servertest.ts › "resolves prompt dependencies in chat prompts correctly"
  it('resolves dependencies in a chat prompt', async () => {
    const [child, parent] = [unique('chat-child-text'), unique('chat-parent')]
    await text(child, 'I am a text prompt')
    await project.create({
      name: parent,
      type: 'chat',
      labels: ['production'],
      prompt: [
        { role: 'system', content: 'You are a helpful assistant' },
        { role: 'user', content: `Here's some context: ${tag(child, 'label=production')}` },
      ],
    })
    const res = await fetchPrompt(parent, '?version=1')
    expect(res.status).toBe(200)
    expect(res.body.prompt).toEqual([
      { role: 'system', content: 'You are a helpful assistant' },
      { role: 'user', content: "Here's some context: I am a text prompt" },
    ])
  })

  // prompts.v2.servertest.ts › "supports nested dependencies in chat prompts"
  it('resolves nested dependencies in a chat prompt', async () => {
    const [leaf, middle, parent] = [
      unique('nested-child'),
      unique('intermediate-prompt'),
      unique('nested-chat-parent'),
    ]
    await text(leaf, 'I am a nested child')
    await text(middle, `Intermediate prompt with dependency: ${tag(leaf, 'label=production')}`)
    await project.create({
      name: parent,
      type: 'chat',
      labels: ['production'],
      prompt: [
        { role: 'system', content: 'You are a helpful assistant' },
        { role: 'user', content: `Here's some context: ${tag(middle, 'label=production')}` },
      ],
    })
    const res = await fetchPrompt(parent, '?version=1')
    expect(res.body.prompt).toEqual([
      { role: 'system', content: 'You are a helpful assistant' },
      {
        role: 'user',
        content: "Here's some context: Intermediate prompt with dependency: I am a nested child",
      },
    ])
  })

  // prompts.v2.servertest.ts › "should ignore invalid prompt tags"
  it('leaves malformed tags as text', async () => {
    const name = unique('prompt-with-invalid-tags')
    const body = {
      text: 'This prompt has invalid tags: @@@langfusePrompt:invalid@@@, @@@langfusePrompt:name=missing-type@@@, @@@langfusePrompt:name=no-version-or-label@@@',
    }
    await text(name, JSON.stringify(body))
    const res = await fetchPrompt(name, '?version=1')
    expect(res.status).toBe(200)
    const parsed = JSON.parse(res.body.prompt as string) as { text: string }
    expect(parsed.text).toContain('@@@langfusePrompt:invalid@@@')
    expect(parsed.text).toContain('@@@langfusePrompt:name=missing-type@@@')
    expect(parsed.text).toContain('@@@langfusePrompt:name=no-version-or-label@@@')
  })

  // prompts.v2.servertest.ts › "should handle duplicate dependency tags for the same prompt"
  it('resolves the same tag twice', async () => {
    const [child, parent] = [unique('parent-prompt'), unique('prompt-with-duplicate-tags')]
    await text(child, 'Parent prompt content')
    await text(
      parent,
      `This prompt has duplicate tags: ${tag(child, 'version=1')} and again ${tag(child, 'version=1')}`,
    )
    const res = await fetchPrompt(parent, '?version=1')
    expect(res.body.prompt).toBe(
      'This prompt has duplicate tags: Parent prompt content and again Parent prompt content',
    )
  })

  // prompts.v2.servertest.ts › "should handle special characters in prompt names"
  it('resolves names with special characters', async () => {
    const suffix = unique('')
    const children = (
      [
        ['prompt-with-hyphens', 'Hyphen content'],
        ['prompt_with_underscores', 'Underscore content'],
        ['prompt.with.dots', 'Dot content'],
        ['prompt123WithNumbers', 'Numbers content'],
        ['prompt with spaces', 'Space content'],
        ['prompt/with/slashes', 'Slash content'],
      ] as const
    ).map(([name, content]) => [`${name}${suffix}`, content] as const)
    for (const [name, content] of children) await text(name, content, [])
    const parent = unique('prompt-with-special-char-dependencies')
    await text(parent, `\n      ${children.map(([name]) => tag(name, 'version=1')).join('\n      ')}\n    `)
    const res = await fetchPrompt(parent, '?version=1')
    expect(res.status).toBe(200)
    expect(res.body.prompt).toBe(`\n      ${children.map(([, content]) => content).join('\n      ')}\n    `)
  })

  // prompts.v2.servertest.ts › "should disallow a prompt that references itself"
  it('refuses a prompt that includes itself', async () => {
    const name = unique('self-referencing-prompt')
    await text(name, 'Initial content')
    const res = await project.call('POST', base, {
      name,
      prompt: `\n      ${tag(name, 'version=1')}\n    `,
      type: 'text',
      labels: ['production'],
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('Circular dependency')
  })

  // prompts.v2.servertest.ts › "should return an error when a dependent prompt doesn't exist"
  it('refuses a reference to a prompt that does not exist', async () => {
    const res = await project.call('POST', base, {
      name: unique('prompt-with-missing-dependency'),
      prompt: `\n      ${tag('non-existent-prompt', 'version=1')}\n    `,
      type: 'text',
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('not found')
  })

  // prompts.v2.servertest.ts › "should return an error when a dependent prompt exists but in a different project"
  it('refuses a reference to a prompt of another space', async () => {
    const other = await newProject(testApp)
    const elsewhere = unique('different-project-prompt')
    await other.create({ name: elsewhere, prompt: 'Content in another project', labels: ['production'] })
    const res = await project.call('POST', base, {
      name: unique('prompt-with-cross-project-dependency'),
      prompt: `\n      ${tag(elsewhere, 'version=1')}\n    `,
      type: 'text',
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('not found')
  })

  // prompts.v2.servertest.ts › "should throw an error if MAX_PROMPT_NESTING_DEPTH is exceeded" (5)
  it('refuses nesting deeper than five', async () => {
    const prefix = unique('depth-')
    for (let level = 5; level >= 1; level--) {
      await text(
        `${prefix}-${level}`,
        level === 5
          ? 'I am the deepest prompt'
          : `Level ${level} with dependency: ${tag(`${prefix}-${level + 1}`, 'label=production')}`,
      )
    }
    const res = await project.call('POST', base, {
      name: `${prefix}-0`,
      prompt: `Level 0 with dependency: ${tag(`${prefix}-1`, 'label=production')}`,
      type: 'text',
      labels: ['production'],
    })
    expect(res.status).toBe(400)
    expect(JSON.stringify(res.body)).toContain('Maximum nesting depth exceeded')
  })
})

describe('DELETE /api/public/v2/prompts/{name}', () => {
  const versionsOf = async (name: string) => {
    const list = await project.call<{ data: { versions: number[] }[] }>(
      'GET',
      `${base}?name=${encodeURIComponent(name)}`,
    )
    return list.body.data[0]?.versions ?? []
  }

  // prompts.v2.servertest.ts › "deletes all versions of a prompt"
  it('deletes all versions of a prompt', async () => {
    const name = unique('prompt-to-delete')
    await text(name, 'v1')
    await text(name, 'v2', [])
    expect((await project.call('DELETE', path(name))).status).toBe(204)
    expect(await versionsOf(name)).toEqual([])
  })

  // prompts.v2.servertest.ts › "deletes by label and version"
  it('deletes by version, then by label', async () => {
    const name = unique('prompt-label-version')
    await text(name, 'v1')
    await text(name, 'v2', ['dev'])
    expect((await project.call('DELETE', path(name, '?version=1'))).status).toBe(204)
    expect(await versionsOf(name)).toEqual([2])
    expect((await project.call('DELETE', path(name, '?label=dev'))).status).toBe(204)
    expect(await versionsOf(name)).toEqual([])
  })

  // prompts.v2.servertest.ts › "deletes a prompt with slashes in name (folder structure)"
  it('deletes a prompt with slashes in its name', async () => {
    const name = unique('folder/subfolder/prompt')
    await text(name, 'content')
    expect((await project.call('DELETE', path(name))).status).toBe(204)
    expect(await versionsOf(name)).toEqual([])
  })

  // prompts.v2.servertest.ts › 'reattaches "latest" label to highest remaining version when deleted'.
  // Langfuse seeds `latest` on v2 and `dev` on both v1 and v3; through the API a label is on one
  // version, so dev moves to v3 and v1 keeps none.
  it('puts latest on the highest remaining version', async () => {
    const name = unique('prompt-latest-reattach')
    await text(name, 'v1', ['dev'])
    await text(name, 'v2', ['production'])
    await text(name, 'v3', ['dev'])
    expect((await project.call('DELETE', path(name, '?version=2'))).status).toBe(204)
    expect(await versionsOf(name)).toEqual([1, 3])
    const v3 = (await fetchPrompt(name, '?version=3')).body.labels as string[]
    expect(v3).toContain('latest')
    expect(v3).toContain('dev')
    expect((await fetchPrompt(name, '?version=1')).body.labels).toEqual([])
  })
})
