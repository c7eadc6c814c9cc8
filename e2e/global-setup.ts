import { request } from '@playwright/test'
import { ADMIN, signUpBody } from './support.ts'

/**
 * An installation's first account becomes its global admin; make that a known account on both app
 * servers (the main one and the one with plans on, playwright.config.ts).
 */
export default async function globalSetup() {
  for (const port of [process.env.E2E_PORT ?? 3100, process.env.E2E_PLANS_PORT ?? 3128]) {
    const baseURL = `http://localhost:${port}`
    const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } })
    const res = await api.post('/api/v1/auth/sign-up', { data: signUpBody(ADMIN.email, ADMIN.password) })
    if (res.status() !== 201)
      throw new Error(`could not create the admin on ${baseURL}: ${res.status()} ${await res.text()}`)
    await api.dispose()
  }
}
