import { FakeModelServer } from '../src/server/testing/model-server.ts'

/** The fake model server of the e2e run (e2e/servers/model-server.ts), as a provider form takes it. */
export const fakeModels = {
  openAiBaseUrl: `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/openai/v1`,
  anthropicBaseUrl: `http://127.0.0.1:${process.env.E2E_MODEL_PORT}/anthropic/v1`,
  apiKey: FakeModelServer.apiKey,
  models: FakeModelServer.models,
}
