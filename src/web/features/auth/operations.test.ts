import { describe, expect, it } from 'vitest'
import { accountOperations } from '../../../domain/api/account.ts'
import { authOperations } from '../../../domain/api/auth.ts'
import { operationsOf } from '../../../domain/api/operation.ts'
import { accountCalls, authCalls } from './operations.ts'

describe('the operations the sign-in pages call by address', () => {
  it.each([
    ['auth', authOperations, authCalls],
    ['account', accountOperations, accountCalls],
  ] as const)('%s: one for each declaration, with its id, query key and address', (_, group, calls) => {
    const declared = operationsOf(group).map(({ id, group, name, spec }) => ({
      id,
      group,
      name,
      spec: { method: spec.method, path: spec.path },
    }))
    expect(Object.values(calls)).toEqual(declared)
  })
})
