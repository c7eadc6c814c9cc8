import {
  createPromptInput,
  listPromptsQuery,
  promptTagsQuery,
  setCurrentVersionInput,
  updatePromptInput,
} from '../../../domain/prompts.ts'
import type { ApiTag } from '../../http/openapi.ts'

export const promptsApiDoc: ApiTag = {
  name: 'Prompts',
  description: 'Prompts and their versions. Private prompts of others answer 404.',
  operations: [
    {
      method: 'get',
      path: '/v1/prompts',
      summary: 'List my prompts or my teams’ prompts (search, tags, cursor pages of 20)',
      access: 'signed-in',
      query: listPromptsQuery,
      success: { status: 200, description: '`{ items, nextCursor }`' },
    },
    {
      method: 'get',
      path: '/v1/prompts/tags',
      summary: 'The tags used in a scope, for the tag filter',
      access: 'signed-in',
      query: promptTagsQuery,
      success: { status: 200, description: '`{ items: string[] }`' },
    },
    {
      method: 'post',
      path: '/v1/prompts',
      summary: 'Create a prompt with version 1 as its current version',
      access: 'signed-in',
      body: createPromptInput,
      success: { status: 201, description: 'The prompt with its versions' },
      errors: ['conflict'],
    },
    {
      method: 'get',
      path: '/v1/prompts/:id',
      summary: 'A prompt with its versions',
      access: 'signed-in',
      success: { status: 200, description: 'The prompt with its versions' },
    },
    {
      method: 'patch',
      path: '/v1/prompts/:id',
      summary:
        'Save a prompt; a changed body becomes the next version (409 `stale_version` when the base version is no longer current)',
      access: 'signed-in',
      body: updatePromptInput,
      success: { status: 200, description: 'The prompt with its versions' },
      errors: ['forbidden', 'conflict'],
    },
    {
      method: 'delete',
      path: '/v1/prompts/:id',
      summary: 'Delete a prompt with its versions and attachments (owner only)',
      access: 'signed-in',
      success: { status: 204, description: 'Deleted' },
      errors: ['forbidden', 'conflict'],
    },
    {
      method: 'get',
      path: '/v1/prompts/:id/versions',
      summary: 'The versions of a prompt, newest first',
      access: 'signed-in',
      success: { status: 200, description: '`{ items }`' },
    },
    {
      method: 'get',
      path: '/v1/prompts/:id/versions/:versionId',
      summary: 'One version of a prompt',
      access: 'signed-in',
      success: { status: 200, description: 'The version' },
    },
    {
      method: 'put',
      path: '/v1/prompts/:id/current-version',
      summary: 'Make a version the current one (owner only)',
      access: 'signed-in',
      body: setCurrentVersionInput,
      success: { status: 200, description: 'The prompt with its versions' },
      errors: ['forbidden'],
    },
  ],
}
