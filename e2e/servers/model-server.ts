// The e2e run's stand-in for model APIs (started by playwright.config.ts before the app): the fake
// model server on 127.0.0.1:$E2E_MODEL_PORT, OpenAI-compatible under /openai/v1 and Anthropic under
// /anthropic/v1 (src/server/testing/model-server.ts says what it answers). The app runs with
// MODELS_ALLOW_PRIVATE=1 to reach it; e2e/models-support.ts gives its addresses and key.
import { FakeModelServer } from '../../src/server/testing/model-server.ts'

const server = await FakeModelServer.start(Number(process.env.E2E_MODEL_PORT))
const stop = () => void server.close().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
