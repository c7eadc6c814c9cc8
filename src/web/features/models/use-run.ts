import { useEffect, useRef, useState } from 'react'
import type { RunPromptInput, RunResult } from '../../../domain/models.ts'
import { ApiError } from '../../lib/api.ts'
import { runPrompt } from './queries.ts'

/** A run as the playground shows it: the answer so far, then its figures, or why it stopped. */
export type RunState =
  | { status: 'idle' }
  | { status: 'running'; text: string }
  | { status: 'done'; text: string; result: RunResult }
  | { status: 'stopped'; text: string; elapsedMs: number }
  | { status: 'failed'; text: string; error: ApiError | Error }

/**
 * Runs a prompt and streams its answer in. `stop` aborts the request, which makes the server
 * cancel the model's; the text so far stays. A new run, or leaving the page, aborts the one before.
 */
export function useRun(promptId: string) {
  const [state, setState] = useState<RunState>({ status: 'idle' })
  const controller = useRef<AbortController | null>(null)
  const startedAt = useRef(0)
  useEffect(() => () => controller.current?.abort(), [])

  const start = async (body: RunPromptInput) => {
    controller.current?.abort()
    const own = new AbortController()
    controller.current = own
    startedAt.current = performance.now()
    let text = ''
    setState({ status: 'running', text })
    try {
      const result = await runPrompt(
        promptId,
        body,
        (piece) => {
          text += piece
          if (!own.signal.aborted) setState({ status: 'running', text })
        },
        own.signal,
      )
      if (!own.signal.aborted) setState({ status: 'done', text: result.text, result })
    } catch (error) {
      if (own.signal.aborted) return
      setState({ status: 'failed', text, error: error as Error })
    } finally {
      if (controller.current === own) controller.current = null
    }
  }

  const stop = () => {
    const running = controller.current
    if (!running) return
    running.abort()
    controller.current = null
    setState((current) => ({
      status: 'stopped',
      text: current.status === 'idle' ? '' : current.text,
      elapsedMs: Math.round(performance.now() - startedAt.current),
    }))
  }

  return { state, start, stop }
}

/** The server's field errors of a failed run (a model the provider cannot default, a bad value). */
export function runFieldErrors(state: RunState): Record<string, string> {
  return state.status === 'failed' && state.error instanceof ApiError ? state.error.fields : {}
}
