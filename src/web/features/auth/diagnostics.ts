import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { accountOperations } from '../../../domain/api/account.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import type { Operation } from '../../../domain/api/operation.ts'
import { operationUrl } from '../../../domain/api/operation.ts'
import { systemOperations } from '../../../domain/api/system.ts'
import { callOperation, errorText } from '../../lib/api.ts'
import { operationQuery } from '../../lib/queries.ts'
import { sessionQuery } from './session.ts'

/** The server's live auth checks (global admins); never cached, re-run on demand. */
export function useAuthDiagnostics() {
  return useQuery({ ...operationQuery(authOperations.diagnostics, {}), staleTime: 0, gcTime: 0 })
}

/** The user's own live sessions, the current one marked. */
export function useMySessions() {
  return useQuery({
    ...operationQuery(accountOperations.sessions, {}),
    select: (page) => page.items,
    staleTime: 0,
  })
}

/** Reads the session again (which extends its idle lifetime on the server) and the auth checks. */
export function useRefreshSession() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: async () => {
      await queryClient.invalidateQueries({ queryKey: sessionQuery.queryKey })
      await queryClient.invalidateQueries({ queryKey: [authOperations.$group.name] })
      await queryClient.invalidateQueries({ queryKey: [accountOperations.$group.name] })
    },
  })
}

interface FlowStep {
  label: string
  ok: boolean
  ms: number
  detail: string
}

async function step(label: string, run: () => Promise<string>): Promise<FlowStep> {
  const start = performance.now()
  try {
    const detail = await run()
    return { label, ok: true, ms: Math.round(performance.now() - start), detail }
  } catch (error) {
    return {
      label,
      ok: false,
      ms: Math.round(performance.now() - start),
      detail: errorText(error, String(error)),
    }
  }
}

/** /auth-test: the calls a sign-in depends on, run one after another from this browser. */
export function useAuthFlowTest() {
  const { t } = useTranslation('diagnostics')
  return useQuery({
    queryKey: ['diagnostics', 'flow-test'],
    staleTime: 0,
    gcTime: 0,
    queryFn: async () => [
      await step(t('flow.health'), async () => {
        const health = await callOperation(systemOperations.health, {})
        return `${health.database.kind} · ${t('ms', { ms: health.database.latencyMs })}`
      }),
      await step(t('flow.session'), async () => {
        const { user } = await callOperation(accountOperations.session, {})
        if (!user) throw new Error(t('none'))
        return user.email
      }),
      await step(t('flow.providers'), async () => {
        const providers = await callOperation(authOperations.providers, {})
        return Object.entries(providers)
          .filter(([key]) => key !== 'appUrl')
          .map(([key, on]) => `${key}: ${on ? t('ok') : t('notConfigured')}`)
          .join(' · ')
      }),
      await step(t('flow.diagnostics'), async () => {
        const data = await callOperation(authOperations.diagnostics, {})
        return data.database.ok ? t('ok') : (data.database.error ?? t('failed'))
      }),
      await step(t('flow.recovery'), async () => {
        const recovery = await callOperation(authOperations.recovery, {}).catch(() => null)
        return recovery ? t('flow.recoveryActive', { email: recovery.email }) : t('flow.recoveryNone')
      }),
    ],
  })
}

/** /auth-debug-test: the raw answers of the session and provider endpoints, as JSON. */
export function useRawAuthAnswers() {
  const operations: Operation[] = [
    accountOperations.session,
    accountOperations.sessions,
    authOperations.providers,
  ]
  return useQuery({
    queryKey: ['diagnostics', 'raw'],
    staleTime: 0,
    gcTime: 0,
    queryFn: () =>
      Promise.all(
        operations.map(async (operation) => ({
          call: `${operation.spec.method} ${operationUrl(operation.spec)}`,
          answer: await callOperation(operation, {} as never).catch((error: unknown) => ({
            error: errorText(error, String(error)),
          })),
        })),
      ),
  })
}
