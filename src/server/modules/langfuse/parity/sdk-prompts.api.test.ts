import { ChatPromptClient, LangfuseClient, TextPromptClient } from '@langfuse/client'
import { Langfuse } from 'langfuse'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listen } from '../../../testing/listen.ts'
import { createTestApp, type TestApp } from '../../../testing/test-app.ts'
import { newProject, type Project, unique } from './harness.ts'

/**
 * The prompt cases of langfuse/langfuse-js that reach a server: tests/e2e/prompts.e2e.test.ts
 * (`@langfuse/client` 5) and integration-test/langfuse-integration-fetch.spec.ts (`langfuse` 3,
 * as it was before the v4 upgrade), written anew: the SDKs unchanged, against our server on a real
 * port. Names get a suffix so the cases share one space (Langfuse's run against a fresh server).
 */
let testApp: TestApp
let server: Awaited<ReturnType<typeof listen>>
let baseUrl: string
let project: Project

beforeAll(async () => {
  testApp = await createTestApp()
  // Served as main.ts serves it: the SDKs' repeated fetches are answered by the kept-fetch lane.
  server = await listen(testApp)
  baseUrl = server.baseUrl
  project = await newProject(testApp)
})
afterAll(async () => {
  await server?.close()
  await testApp.close()
})

const v5 = () =>
  new LangfuseClient({ publicKey: project.key.publicKey, secretKey: project.key.secretKey, baseUrl })

describe('tests/e2e/prompts.e2e.test.ts (@langfuse/client 5)', () => {
  // › "should create a prompt"
  it('creates a prompt', async () => {
    const name = unique('test-prompt')
    const created = await v5().prompt.create({
      name,
      prompt: 'This is a prompt with a {{variable}}',
      labels: ['production'],
      config: { temperature: 0.5 },
    })
    expect(created).toBeInstanceOf(TextPromptClient)
    expect(created.name).toBe(name)
    expect(created.prompt).toBe('This is a prompt with a {{variable}}')
    expect(created.config).toEqual({ temperature: 0.5 })
    expect(created.labels).toContain('production')
    expect(created.type).toBe('text')
  })

  // › "should create a chat prompt" and "should create a chat prompt with placeholders"
  it('creates a chat prompt, with placeholders', async () => {
    const name = unique('test-prompt-placeholder')
    const created = await v5().prompt.create({
      name,
      type: 'chat',
      prompt: [
        { role: 'system', content: 'This is a prompt with a {{variable}}' },
        { type: 'placeholder', name: 'history' },
        { role: 'assistant', content: 'Hi {{name}}' },
      ],
      labels: ['production'],
      config: { temperature: 0.5 },
    })
    expect(created).toBeInstanceOf(ChatPromptClient)
    expect(created.type).toBe('chat')
    expect(created.config).toEqual({ temperature: 0.5 })
    expect(created.labels).toContain('production')
    expect(created.prompt).toHaveLength(3)
    expect(created.prompt[0]).toMatchObject({
      type: 'chatmessage',
      role: 'system',
      content: 'This is a prompt with a {{variable}}',
    })
    expect(created.prompt[1]).toMatchObject({ type: 'placeholder', name: 'history' })
    expect(created.prompt[2]).toMatchObject({
      type: 'chatmessage',
      role: 'assistant',
      content: 'Hi {{name}}',
    })
  })

  // › "should create prompt with tags"
  it('creates a prompt with tags', async () => {
    const created = await v5().prompt.create({
      name: unique('test-prompt-tags'),
      prompt: 'This is a prompt with a {{variable}}',
      tags: ['tag1', 'tag2'],
    })
    expect(created).toBeInstanceOf(TextPromptClient)
    expect(created.tags).toEqual(['tag1', 'tag2'])
  })

  // › "should get a prompt by name only", "… with getPrompt", "should fetch and cache a prompt when not in cache"
  it('gets a prompt by name only, with prompt.get and getPrompt', async () => {
    const name = unique('test-get-prompt')
    const langfuse = v5()
    await langfuse.prompt.create({
      name,
      prompt: 'This is a test prompt with {{variable}}',
      config: { temperature: 0.5 },
      labels: ['production'],
    })
    for (const got of [await langfuse.prompt.get(name), await v5().getPrompt(name)]) {
      expect(got).toBeInstanceOf(TextPromptClient)
      expect(got.name).toBe(name)
      expect(got.prompt).toBe('This is a test prompt with {{variable}}')
      expect(got.config).toEqual({ temperature: 0.5 })
    }
  })

  // › "should get a prompt with name and version", "should fetch and cache a prompt with correct version when not in cache"
  it('gets a prompt by version, and production by default', async () => {
    const name = unique('test-cache-prompt-versioned-')
    const langfuse = v5()
    await langfuse.prompt.create({ name, prompt: 'one {{variable}}', labels: ['production'] })
    const second = await langfuse.prompt.create({ name, prompt: 'two {{variable}}' })
    expect((await langfuse.prompt.get(name)).version).toBe(1)
    const byVersion = await langfuse.prompt.get(name, { version: second.version })
    expect(byVersion.version).toBe(2)
    expect(byVersion.prompt).toBe('two {{variable}}')
  })

  // › "should throw an error if prompt not found", "should retry if custom request timeout is
  // exceeded", "should throw error when no fallback provided and prompt not found"
  it('throws for a prompt that does not exist', async () => {
    await expect(v5().prompt.get('non-existent-prompt')).rejects.toThrow()
    await expect(
      v5().prompt.get('non-existent-prompt', { fetchTimeoutMs: 300, maxRetries: 2 }),
    ).rejects.toThrow()
  })

  describe('update method', () => {
    // › "should update prompt labels successfully", "should handle update with additional labels",
    // "should maintain data consistency after updates"
    it('updates labels and keeps the rest', async () => {
      const name = unique('test-update-prompt')
      const langfuse = v5()
      const initial = await langfuse.prompt.create({
        name,
        prompt: 'Initial content',
        labels: ['production'],
        config: { temperature: 0.5 },
      })
      const updated = await langfuse.prompt.update({
        name,
        version: initial.version,
        newLabels: ['production', 'staging', 'testing'],
      })
      expect(updated.name).toBe(name)
      expect(updated.labels).toEqual(expect.arrayContaining(['production', 'staging', 'testing']))
      const server = await langfuse.api.prompts.get(name)
      expect(server.labels).toEqual(expect.arrayContaining(['production', 'staging']))
      expect(server.config).toEqual({ temperature: 0.5 })
      expect(server.prompt).toBe('Initial content')
    })

    // › "should invalidate cache after update"
    it('fetches fresh labels after an update', async () => {
      const name = unique('test-cache-invalidation')
      const langfuse = v5()
      const initial = await langfuse.prompt.create({
        name,
        prompt: 'Original content',
        labels: ['production'],
      })
      expect((await langfuse.prompt.get(name)).labels).toContain('production')
      await langfuse.prompt.update({ name, version: initial.version, newLabels: ['production', 'updated'] })
      const fresh = await langfuse.prompt.get(name)
      expect(fresh.labels).toEqual(expect.arrayContaining(['production', 'updated']))
    })

    // › "should throw error when updating non-existent prompt", "… with wrong version"
    it('throws for a missing prompt or version', async () => {
      const name = unique('test-wrong-version')
      const langfuse = v5()
      await langfuse.prompt.create({ name, prompt: 'Test content', labels: ['production'] })
      await expect(
        langfuse.prompt.update({ name: 'non-existent-prompt', version: 1, newLabels: ['production'] }),
      ).rejects.toThrow()
      await expect(
        langfuse.prompt.update({ name, version: 999, newLabels: ['production'] }),
      ).rejects.toThrow()
    })
  })

  describe('delete method', () => {
    // › "should delete prompt and invalidate cache"
    it('deletes a prompt in a folder', async () => {
      const name = unique('folder/test-delete-prompt-')
      const langfuse = v5()
      await langfuse.prompt.create({ name, prompt: 'This prompt will be deleted', labels: ['production'] })
      expect((await langfuse.prompt.get(name)).prompt).toBe('This prompt will be deleted')
      await langfuse.prompt.delete(name)
      await expect(langfuse.prompt.get(name)).rejects.toThrow()
    })

    // › "should delete specific version and invalidate that version's cache"
    it('deletes one version', async () => {
      const name = unique('folder/subfolder/test-delete-version-')
      const langfuse = v5()
      const v1 = await langfuse.prompt.create({ name, prompt: 'Version 1', labels: ['production'] })
      const v2 = await langfuse.prompt.create({ name, prompt: 'Version 2', labels: ['staging'] })
      await langfuse.prompt.get(name, { version: v1.version })
      await langfuse.prompt.get(name, { version: v2.version })
      await langfuse.prompt.delete(name, { version: v1.version })
      await expect(langfuse.prompt.get(name, { version: v1.version })).rejects.toThrow()
      const remaining = await langfuse.prompt.get(name, { version: v2.version })
      expect(remaining.version).toBe(2)
      expect(remaining.prompt).toBe('Version 2')
    })

    // › "should throw error when deleting non-existent prompt"
    it('throws deleting a prompt that does not exist', async () => {
      await expect(v5().prompt.delete(unique('non-existent/prompt-'))).rejects.toThrow()
    })
  })

  // › "fallback behavior" › "should prefer server prompt over fallback when available"
  it('prefers the server’s prompt over a fallback', async () => {
    const name = unique('real-vs-fallback')
    await v5().prompt.create({ name, prompt: 'Real server prompt', labels: ['production'] })
    const got = await v5().prompt.get(name, { fallback: 'This is a fallback', type: 'text' })
    expect(got.prompt).toBe('Real server prompt')
    expect(got.isFallback).toBe(false)
  })

  describe('server-side data integrity', () => {
    // › "should store and retrieve all prompt fields correctly"
    it('stores and answers every field', async () => {
      const name = unique('server-integrity-test')
      const created = await v5().prompt.create({
        name,
        prompt: 'Server integrity test content with {{variable}}',
        labels: ['production'],
        config: { temperature: 0.8, model: 'gpt-4' },
        tags: ['integration', 'test'],
      })
      const server = await v5().api.prompts.get(name)
      expect(server.name).toBe(name)
      expect(server.prompt).toBe('Server integrity test content with {{variable}}')
      expect(server.labels).toContain('production')
      expect(server.config).toEqual({ temperature: 0.8, model: 'gpt-4' })
      expect(server.tags).toEqual(expect.arrayContaining(['integration', 'test']))
      expect(server.version).toBe(created.version)
    })

    // › "should store chat prompts with correct message structure"
    it('stores a chat prompt’s messages and placeholders', async () => {
      const name = unique('server-chat-integrity')
      await v5().prompt.create({
        name,
        type: 'chat',
        labels: ['production'],
        prompt: [
          { role: 'system', content: 'You are {{assistant_type}}' },
          { type: 'placeholder', name: 'history' },
          { role: 'user', content: 'Help with {{task}}' },
        ],
      })
      const server = await v5().api.prompts.get(name)
      expect(server.type).toBe('chat')
      expect(server.prompt).toHaveLength(3)
      expect((server.prompt as unknown[])[0]).toMatchObject({
        role: 'system',
        content: 'You are {{assistant_type}}',
      })
      expect((server.prompt as unknown[])[1]).toMatchObject({ type: 'placeholder', name: 'history' })
    })
  })

  describe('custom label handling', () => {
    // › "should create and retrieve prompts with custom labels"
    it('fetches by a custom label', async () => {
      const name = unique('custom-label-test')
      await v5().prompt.create({ name, prompt: 'Custom label content', labels: ['staging', 'experimental'] })
      const got = await v5().prompt.get(name, { label: 'staging' })
      expect(got.labels).toEqual(expect.arrayContaining(['staging', 'experimental']))
    })

    // › "should handle prompts without production label"
    it('finds no production without the label', async () => {
      const name = unique('no-production-label')
      await v5().prompt.create({ name, prompt: 'No production label content', labels: ['development'] })
      await expect(v5().prompt.get(name)).rejects.toThrow()
      const got = await v5().prompt.get(name, { label: 'development' })
      expect(got.labels).toContain('development')
      expect(got.labels).not.toContain('production')
    })

    // › "should prioritize version over label in cache key"
    it('fetches by version whatever its labels', async () => {
      const name = unique('version-priority-test')
      const langfuse = v5()
      const first = await langfuse.prompt.create({
        name,
        prompt: 'Version 1 content',
        labels: ['production'],
      })
      await langfuse.prompt.update({ name, version: first.version, newLabels: ['staging'] })
      const byVersion = await langfuse.prompt.get(name, { version: first.version })
      expect(byVersion.prompt).toBe('Version 1 content')
      expect(byVersion.version).toBe(first.version)
      expect((await langfuse.prompt.get(name, { label: 'staging' })).labels).toContain('staging')
    })
  })

  describe('comprehensive error scenarios', () => {
    // › "should handle invalid version numbers"
    it('throws for version -1', async () => {
      await expect(v5().prompt.get('test', { version: -1 })).rejects.toThrow()
    })

    // › "should handle special characters in prompt names": each name either round-trips or is
    // refused with an error (Langfuse's case accepts both); we check which and that a round trip is exact.
    it('round-trips names with special characters or refuses them', async () => {
      const names = [
        'prompt-with-dashes',
        'prompt_with_underscores',
        'prompt.with.dots',
        'prompt with spaces',
        'prompt@with#symbols',
        'prompt/with/slashes',
        'prompt?with=query&chars',
        'prompt[with]brackets',
        'prompt{with}braces',
        'prompt(with)parentheses',
        'prompt+with+plus',
        'prompt\\with\\backslashes',
        'prompt"with"quotes',
        "prompt'with'apostrophes",
        'prompt:with:colons',
        'prompt;with;semicolons',
        'prompt%20encoded',
        'unicode-prompt-名前-тест-🚀',
      ]
      const langfuse = v5()
      for (const name of names) {
        await langfuse.prompt.create({
          name,
          prompt: `Test prompt for special name: ${name}`,
          labels: ['production'],
        })
        const got = await langfuse.prompt.get(name)
        expect(got.name).toBe(name)
        expect(got.prompt).toBe(`Test prompt for special name: ${name}`)
      }
      // Langfuse refuses these two names ('|' and HTML); so do we.
      for (const name of ['prompt|with|pipes', 'prompt<with>angles']) {
        await expect(langfuse.prompt.create({ name, prompt: 'x', labels: ['production'] })).rejects.toThrow()
      }
    })

    // › "should handle very large prompt names" (500 characters: refused with an error here)
    it('refuses a 500-character name with an error', async () => {
      await expect(
        v5().prompt.create({
          name: 'a'.repeat(500),
          prompt: 'Test with very long name',
          labels: ['production'],
        }),
      ).rejects.toThrow()
    })

    // › "should handle malformed configuration gracefully": any JSON object is a config
    it('stores any JSON object as config', async () => {
      const config = {
        temperature: 'invalid',
        maxTokens: -1,
        model: null,
        invalidField: { deeply: { nested: { circular: null } } },
      }
      const name = unique('malformed-config-test')
      await v5().prompt.create({ name, prompt: 'Test prompt', labels: ['production'], config })
      expect((await v5().prompt.get(name)).config).toEqual(config)
    })
  })
})

describe('integration-test/langfuse-integration-fetch.spec.ts (langfuse 3)', () => {
  const v3 = () =>
    new Langfuse({
      publicKey: project.key.publicKey,
      secretKey: project.key.secretKey,
      baseUrl,
      fetchRetryCount: 0,
    })

  // › "create prompt"
  it('creates a prompt with isActive and a commit message', async () => {
    const name = unique('test_text_prompt')
    const langfuse = v3()
    const created = await langfuse.createPrompt({
      name,
      isActive: true,
      prompt: 'A {{animal}} usually has {{animal}} friends.',
      commitMessage: 'initial commit',
    })
    expect(created.constructor.name).toBe('TextPromptClient')
    const fetched = await langfuse.getPrompt(name)
    expect(fetched.name).toEqual(name)
    expect(fetched.prompt).toEqual('A {{animal}} usually has {{animal}} friends.')
    expect(fetched.commitMessage).toBe('initial commit')
    expect(fetched.compile({ animal: 'dog' })).toEqual('A dog usually has dog friends.')
  })

  // › "create prompt with special characters in the name"
  it('creates a prompt with special characters in the name', async () => {
    const name = unique('test-prompt-special character !@#$%^&*()_+')
    const langfuse = v3()
    await langfuse.createPrompt({
      name,
      labels: ['production'],
      prompt: 'A {{animal}} usually has {{animal}} friends.',
    })
    const fetched = await langfuse.getPrompt(name)
    expect(fetched.name).toEqual(name)
    expect(fetched.compile({ animal: 'dog' })).toEqual('A dog usually has dog friends.')
  })

  // › "should fetch prompt by version and label"
  it('fetches by version and label with Langfuse’s label order', async () => {
    const name = unique('test-prompt-')
    const langfuse = v3()
    await langfuse.createPrompt({
      name,
      labels: ['production', 'dev'],
      prompt: 'A {{animal}} usually has {{animal}} friends.',
    })
    await langfuse.createPrompt({
      name,
      labels: ['dev'],
      prompt: 'A {{animal}} usually has {{animal}} friends.',
    })
    const production = await langfuse.getPrompt(name)
    expect(production.labels).toEqual(['production'])
    expect(production.version).toEqual(1)
    const first = await langfuse.getPrompt(name, 1)
    expect(first.labels).toEqual(['production'])
    expect(first.version).toEqual(1)
    const dev = await langfuse.getPrompt(name, undefined, { label: 'dev' })
    expect(dev.labels).toEqual(['dev', 'latest'])
    expect(dev.version).toEqual(2)
    const second = await langfuse.getPrompt(name, 2)
    expect(second.labels).toEqual(['dev', 'latest'])
  })

  // › "create chat prompt"
  it('creates a chat prompt', async () => {
    const name = unique('test_chat_prompt')
    const langfuse = v3()
    const created = await langfuse.createPrompt({
      name,
      type: 'chat',
      isActive: true,
      prompt: [{ role: 'system', content: 'A {{animal}} usually has {{animal}} friends.' }],
      commitMessage: 'initial commit',
    })
    expect(created.constructor.name).toBe('ChatPromptClient')
    const fetched = await langfuse.getPrompt(name, undefined, { type: 'chat' })
    expect(fetched.prompt).toEqual([
      { role: 'system', content: 'A {{animal}} usually has {{animal}} friends.', type: 'chatmessage' },
    ])
    expect(fetched.compile({ animal: 'dog' })).toEqual([
      { role: 'system', content: 'A dog usually has dog friends.' },
    ])
    expect(fetched.commitMessage).toBe('initial commit')
  })

  // › "should not return fallback if fetch succeeds"
  it('answers the server’s prompt, not the fallback', async () => {
    const name = unique('test_text_prompt')
    const langfuse = v3()
    await langfuse.createPrompt({
      name,
      isActive: true,
      prompt: 'A {{animal}} usually has {{animal}} friends.',
    })
    const fetched = await langfuse.getPrompt(name, undefined, {
      fallback: 'fallback with variable {{variable}}',
    })
    expect(fetched.prompt).toEqual('A {{animal}} usually has {{animal}} friends.')
  })

  // › "should return the fallback text prompt if cache empty and fetch fails" and "… chat prompt …"
  it('throws without a fallback for a missing prompt, and answers the fallback with one', async () => {
    const name = unique('non-existing-prompt')
    const langfuse = v3()
    await expect(langfuse.getPrompt(name)).rejects.toThrow()
    const text = await langfuse.getPrompt(name, undefined, {
      fallback: 'fallback with variable {{variable}}',
    })
    expect(text.compile({ variable: 'value' })).toEqual('fallback with variable value')
    const chat = await langfuse.getPrompt(name, undefined, {
      type: 'chat',
      fallback: [{ role: 'system', content: 'fallback with variable {{variable}}' }],
    })
    expect(chat.compile({ variable: 'value' })).toEqual([
      { role: 'system', content: 'fallback with variable value' },
    ])
  })
})
