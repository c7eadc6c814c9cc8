import type { Page } from '@playwright/test'
import type { ModelProvider } from '../src/domain/models.ts'
import { FakeModelServer } from '../src/server/testing/model-server.ts'
import { apiOptions, expect } from './support.ts'

/** The fake model server of the e2e run (e2e/servers/model-server.ts), as a provider form takes it. */
export const fakeModels = {
  openAiBaseUrl: `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/openai/v1`,
  anthropicBaseUrl: `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/anthropic/v1`,
  apiKey: FakeModelServer.apiKey,
  models: FakeModelServer.models,
}

/**
 * A provider for the fake model server, added through the API as the page's user (Settings →
 * Models has its own tests); `extra` changes its kind, models, team...
 */
export async function addProviderViaApi(
  page: Page,
  extra: Record<string, unknown> = {},
): Promise<ModelProvider> {
  const created = await page.request.post('/api/v1/model-providers', {
    data: {
      kind: 'openai_compatible',
      name: 'Fake',
      baseUrl: fakeModels.openAiBaseUrl,
      apiKey: fakeModels.apiKey,
      models: fakeModels.models,
      defaultModel: 'fake-small',
      ...extra,
    },
    ...apiOptions(),
  })
  expect(created.status(), await created.text()).toBe(201)
  return (await created.json()) as ModelProvider
}
