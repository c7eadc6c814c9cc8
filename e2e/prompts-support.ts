import type { Page } from '@playwright/test'
import type { CreatePromptInput, PromptDetail } from '../src/domain/prompts.ts'
import { apiOptions, expect } from './support.ts'

/** Creates a prompt through the API as the page's signed-in user. */
export async function createPromptViaApi(
  page: Page,
  input: Partial<CreatePromptInput> = {},
): Promise<PromptDetail> {
  const res = await page.request.post('/api/v1/prompts', {
    data: { title: 'A prompt', body: 'Say hello to {name}.', ...input },
    ...apiOptions(),
  })
  expect(res.status(), await res.text()).toBe(201)
  return (await res.json()) as PromptDetail
}

/** Saves a new body through the API (a new version), as another tab of the owner would. */
export async function saveBodyViaApi(page: Page, promptId: string, body: string): Promise<PromptDetail> {
  const res = await page.request.patch(`/api/v1/prompts/${promptId}`, {
    data: { body },
    ...apiOptions(),
  })
  expect(res.status(), await res.text()).toBe(200)
  return (await res.json()) as PromptDetail
}
