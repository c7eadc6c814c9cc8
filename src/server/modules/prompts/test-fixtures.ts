import { promptOperations } from '../../../domain/api/prompts.ts'
import type { CreatePromptInput, PromptDetail } from '../../../domain/prompts.ts'
import type { TestClient } from '../../testing/client.ts'

/** Creates a prompt through the API as `client` and returns its detail answer. */
export async function createPromptAs(
  client: TestClient,
  input: Partial<CreatePromptInput> = {},
): Promise<PromptDetail> {
  const res = await client.call(promptOperations.create, {
    body: { title: 'A prompt', body: 'Say hello to {name}.', ...input },
  })
  if (res.status !== 201)
    throw new Error(`creating a prompt failed: ${res.status} ${JSON.stringify(res.body)}`)
  return res.body
}
