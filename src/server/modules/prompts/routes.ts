import { Hono } from 'hono'
import { z } from 'zod'
import {
  createPromptInput,
  listPromptsQuery,
  promptTagsQuery,
  setCurrentVersionInput,
  updatePromptInput,
} from '../../../domain/prompts.ts'
import type { Db } from '../../db/client.ts'
import type { UserEnv } from '../../http/env.ts'
import { jsonBody, pathParam, queryParams } from '../../http/input.ts'
import { requireUser } from '../../http/session.ts'
import { promptNotFound } from './access.ts'
import { listPrompts, listPromptTags } from './list.ts'
import {
  createPrompt,
  deletePrompt,
  getPromptDetail,
  getVersion,
  listVersions,
  savePrompt,
  setCurrentVersion,
} from './service.ts'

const promptId = z.uuid()

/** `/api/v1/prompts`: prompts and their versions (§7), for signed-in users only. */
export function promptRoutes(deps: { db: Db }) {
  const { db } = deps
  return new Hono<UserEnv>()
    .use(requireUser)
    .get('/', async (c) => c.json(await listPrompts(db, c.get('user').id, queryParams(c, listPromptsQuery))))
    .get('/tags', async (c) =>
      c.json({ items: await listPromptTags(db, c.get('user').id, queryParams(c, promptTagsQuery)) }),
    )
    .post('/', async (c) => {
      const input = await jsonBody(c, createPromptInput)
      const actor = { id: c.get('user').id, locale: c.get('locale') }
      return c.json(await createPrompt(db, actor, input), 201)
    })
    .get('/:id', async (c) => {
      const id = pathParam(c.req.param('id'), promptId, promptNotFound())
      return c.json(await getPromptDetail(db, c.get('user').id, id))
    })
    .patch('/:id', async (c) => {
      const id = pathParam(c.req.param('id'), promptId, promptNotFound())
      const input = await jsonBody(c, updatePromptInput)
      const actor = { id: c.get('user').id, locale: c.get('locale') }
      return c.json(await savePrompt(db, actor, id, input))
    })
    .delete('/:id', async (c) => {
      const id = pathParam(c.req.param('id'), promptId, promptNotFound())
      await deletePrompt(db, c.get('user').id, id)
      return c.body(null, 204)
    })
    .get('/:id/versions', async (c) => {
      const id = pathParam(c.req.param('id'), promptId, promptNotFound())
      return c.json({ items: await listVersions(db, c.get('user').id, id) })
    })
    .get('/:id/versions/:versionId', async (c) => {
      const id = pathParam(c.req.param('id'), promptId, promptNotFound())
      return c.json(await getVersion(db, c.get('user').id, id, c.req.param('versionId')))
    })
    .put('/:id/current-version', async (c) => {
      const id = pathParam(c.req.param('id'), promptId, promptNotFound())
      const { versionId } = await jsonBody(c, setCurrentVersionInput)
      return c.json(await setCurrentVersion(db, c.get('user').id, id, versionId))
    })
}
