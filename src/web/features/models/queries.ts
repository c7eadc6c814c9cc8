import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { modelOperations } from '../../../domain/api/models.ts'
import type { CreateProviderInput, RunPromptInput, UpdateProviderInput } from '../../../domain/models.ts'
import { callOperation } from '../../lib/api.ts'
import { callOperationStreamingText } from '../../lib/api-streams.ts'
import { invalidateOperations, operationQuery } from '../../lib/queries.ts'
import { useStepUp } from '../step-up/index.ts'

/** The providers of my personal space (teamId null) or of a team I administer. */
export function useProviders(teamId: string | null) {
  return useQuery(operationQuery(modelOperations.list, { query: teamId ? { teamId } : {} }))
}

/** Every provider I may run prompts with: my own and those of my teams. */
export function useUsableProviders() {
  return useQuery({ ...operationQuery(modelOperations.usable, {}), select: (page) => page.items })
}

function useProviderMutation<I, R>(fn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => invalidateOperations(queryClient, modelOperations),
  })
}

// Adding a provider and changing one need a recent sign-in: the re-authentication dialog asks for
// one, then the action runs again (useStepUp).
export function useCreateProvider() {
  const stepUp = useStepUp()
  return useProviderMutation((body: CreateProviderInput & { teamId: string | null }) =>
    stepUp(() => callOperation(modelOperations.create, { body: { ...body, teamId: body.teamId ?? '' } })),
  )
}

export function useUpdateProvider(id: string) {
  const stepUp = useStepUp()
  return useProviderMutation((body: UpdateProviderInput) =>
    stepUp(() => callOperation(modelOperations.update, { params: { id }, body })),
  )
}

export function useDeleteProvider(id: string) {
  return useProviderMutation(() => callOperation(modelOperations.delete, { params: { id } }))
}

/** The model names the provider's API lists; nothing is stored until the form is saved. */
export function useFetchModels(id: string) {
  return useMutation({
    mutationFn: () => callOperation(modelOperations.fetchModels, { params: { id } }),
  })
}

/** Runs a prompt's version against a model; the answer's pieces go to `onText` as they stream in. */
export function runPrompt(
  promptId: string,
  body: RunPromptInput,
  onText: (text: string) => void,
  signal: AbortSignal,
) {
  return callOperationStreamingText(modelOperations.run, { params: { id: promptId }, body }, onText, {
    signal,
  })
}

/**
 * The variables and placeholders of a version's text, or of an edited draft's, with the prompts
 * it includes expanded (the server resolves them): asked only for a text that includes others.
 */
export function useExpandedVariables(
  promptId: string,
  input: { version?: number; label?: string; body?: string },
  enabled: boolean,
) {
  return useQuery({
    ...operationQuery(modelOperations.variables, { params: { id: promptId }, body: input }),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  })
}
