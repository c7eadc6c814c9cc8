import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'

/** A full garbage collection now: what `node --expose-gc` offers as gc(), without the flag at start. */
export function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}
