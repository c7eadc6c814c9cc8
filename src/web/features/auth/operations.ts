import type { accountOperations } from '../../../domain/api/account.ts'
import type { authOperations } from '../../../domain/api/auth.ts'
import { accountAddresses, authAddresses } from '../../../domain/api/auth-addresses.ts'
import { operationRefs } from '../../lib/api.ts'

/**
 * The auth and account operations as the sign-in pages and the session check call them: by
 * address, typed by their declarations, so that these pages do not download zod (decision 0220).
 */
export const authCalls = operationRefs<typeof authOperations>('auth', authAddresses)
export const accountCalls = operationRefs<typeof accountOperations>('account', accountAddresses)
