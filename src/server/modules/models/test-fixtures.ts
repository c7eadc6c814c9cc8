import { expect } from 'vitest'
import { modelOperations } from '../../../domain/api/models.ts'
import type { ModelProvider } from '../../../domain/models.ts'
import type { TestClient } from '../../testing/client.ts'
import { FakeModelServer } from '../../testing/model-server.ts'

/** The models of the fake server that the API tests name, the misbehaving ones included. */
export const FAKE_MODELS = ['fake-small', 'missing-model', 'busy-model', 'broken-model', 'endless-model']

/** A provider for `fake` (OpenAI-compatible unless `body` says otherwise), added as `client`. */
export async function addFakeProvider(
  client: TestClient,
  fake: FakeModelServer,
  body: Record<string, unknown> = {},
): Promise<ModelProvider> {
  const res = await client.call(modelOperations.create, {
    body: {
      kind: 'openai_compatible',
      name: 'Fake OpenAI',
      baseUrl: fake.openAiBaseUrl,
      apiKey: FakeModelServer.apiKey,
      models: FAKE_MODELS,
      defaultModel: 'fake-small',
      ...body,
    },
  })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}
