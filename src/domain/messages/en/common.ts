/** Errors and validation messages used across the app. */
export const commonEn = {
  'error.validation': 'Validation failed',
  'error.notAuthenticated': 'Authentication required',
  'error.forbidden': 'Access denied',
  'error.notFound': 'Resource not found',
  'error.conflict': 'Resource conflict',
  'error.payloadTooLarge': 'The request is too large.',
  'error.rateLimited': 'Rate limit exceeded, please try again later',
  'error.unexpected': 'Unexpected error. Please try again later.',
  'error.transient': 'The service is temporarily unavailable, please try again',
  'error.upstream': 'The model provider did not answer as expected. Please try again.',
  'error.storage':
    'The server cannot save data right now (its storage is full or read-only). Please try again later.',
  'error.network': 'Network error, please try again',
  'error.malformedJson': 'The request body is not valid JSON.',
  'error.jsonRequired': 'Requests that change data must send JSON.',
  'error.originRejected': 'This request came from another site and was refused.',
  'error.routeNotFound': 'No such API endpoint.',
  'error.globalAdminRequired': 'Global admin access required',
  'error.invalidCursor': 'Invalid cursor format',
  'error.unstorableCharacter':
    'Text contains a character that cannot be stored (U+0000 or an unpaired surrogate)',
  'error.invalidValue': 'Invalid value',
  'error.invalidLimit': 'Limit must be a whole number',
} as const
