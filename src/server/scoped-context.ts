import { AsyncLocalStorage } from 'node:async_hooks'

/**
 * An `AsyncLocalStorage` that is enabled only while one of its `run()` calls is in flight.
 *
 * On Node 20 an enabled `AsyncLocalStorage` installs promise hooks for the whole process: every
 * promise of every request then pays for them, whether or not it uses the storage. better-auth keeps
 * its request and endpoint context in such storages and enables them at the first sign-in, after
 * which every API request paid about a tenth more server CPU (decision 0217). Its storages are only
 * read inside its own `run()` calls (its background work is awaited, as no `backgroundTasks`
 * handler is configured), so disabling a storage when its last run has settled changes nothing
 * that reads it, and the hooks go away until the next sign-in, reset or provider callback.
 */
export class ScopedAsyncLocalStorage<T> extends AsyncLocalStorage<T> {
  #running = 0

  /** How many `run()` calls have not settled yet (0: the storage is disabled). */
  get running(): number {
    return this.#running
  }

  override run<R>(store: T, callback: () => R): R
  override run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R
  override run<R, A extends unknown[]>(store: T, callback: (...args: A) => R, ...args: A): R {
    this.#running++
    let result: R
    try {
      result = super.run(store, callback, ...args)
    } catch (error) {
      this.#settled()
      throw error
    }
    if (!isThenable(result)) {
      this.#settled()
      return result
    }
    // The caller gets the same outcome; the count drops once it is known, whichever it is.
    return result.then(
      (value) => {
        this.#settled()
        return value
      },
      (error: unknown) => {
        this.#settled()
        throw error
      },
    ) as R
  }

  #settled(): void {
    this.#running--
    if (this.#running === 0) this.disable()
  }
}

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof (value as PromiseLike<unknown> | null)?.then === 'function'

/** The names better-auth gives its storages on its process-wide context (`@better-auth/core/context`). */
export const betterAuthStorageNames = [
  'requestStateAsyncStorage',
  'adapterAsyncStorage',
  'endpointContextAsyncStorage',
] as const

type StorageName = (typeof betterAuthStorageNames)[number]
interface BetterAuthGlobal {
  version: string
  epoch: number
  context: Partial<Record<StorageName, unknown>>
}

/** Where better-auth keeps its process-wide context (shared by every copy of it in the process). */
const betterAuthGlobalKey = Symbol.for('better-auth:global')

/** better-auth's process-wide context, made here when better-auth has not made it yet. */
export function betterAuthContext(): BetterAuthGlobal['context'] {
  const holder = globalThis as unknown as Record<symbol, BetterAuthGlobal | undefined>
  // better-auth writes its own version over the empty one on its first look.
  holder[betterAuthGlobalKey] ??= { version: '', epoch: 1, context: {} }
  return holder[betterAuthGlobalKey].context
}

/** Gives better-auth scoped storages before it makes its own (it makes one only where none is set). */
export function scopeBetterAuthStorages(): void {
  const context = betterAuthContext()
  for (const name of betterAuthStorageNames) {
    if (context[name] === undefined) context[name] = new ScopedAsyncLocalStorage()
  }
}
