import { request } from '@playwright/test'
import { ADMIN, signUpBody } from './support.ts'

/** The installation's first account becomes its global admin; make that a known account. */
export default async function globalSetup() {
  const baseURL = `http://localhost:${process.env.E2E_PORT ?? 3100}`
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } })
  const res = await api.post('/api/v1/auth/sign-up', { data: signUpBody(ADMIN.email, ADMIN.password) })
  if (res.status() !== 201) throw new Error(`could not create the admin: ${res.status()} ${await res.text()}`)
  await api.dispose()
}
