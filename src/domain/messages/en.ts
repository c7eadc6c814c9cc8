/**
 * English texts shared by server and web. Keys are grouped by prefix; the web's own UI texts live in
 * src/web/i18n. Every key here must exist in de.ts too (a unit test checks it).
 */
export const en = {
  'error.validation': 'Validation failed',
  'error.notAuthenticated': 'Authentication required',
  'error.forbidden': 'Access denied',
  'error.notFound': 'Resource not found',
  'error.conflict': 'Resource conflict',
  'error.payloadTooLarge': 'The request is too large.',
  'error.rateLimited': 'Rate limit exceeded, please try again later',
  'error.unexpected': 'Unexpected error. Please try again later.',
  'error.transient': 'The service is temporarily unavailable, please try again',
  'error.network': 'Network error, please try again',
  'error.malformedJson': 'The request body is not valid JSON.',
  'error.jsonRequired': 'Requests that change data must send JSON.',
  'error.originRejected': 'This request came from another site and was refused.',
  'error.routeNotFound': 'No such API endpoint.',
  'error.globalAdminRequired': 'Global admin access required',
  'error.invalidCursor': 'Invalid cursor format',
  'error.invalidValue': 'Invalid value',

  'validation.emailRequired': 'Email is required',
  'validation.emailInvalid': 'Please enter a valid email address',
  'validation.passwordRequired': 'Password is required',
  'validation.passwordMin': 'Password must be at least 12 characters',
  'validation.passwordMax': 'Password must be at most 128 characters',
  'validation.passwordsMismatch': 'Passwords do not match',
  'validation.termsRequired': 'You must accept the Terms and Privacy Policy',

  'auth.emailTaken': 'This email address is already registered',
  'auth.invalidCredentials': 'Invalid email or password.',
  'auth.tooManyAttempts': 'Too many attempts. Please try again later.',
  'auth.rateLimitWait': 'Rate limit reached. Please wait {seconds} seconds before trying again.',
  'auth.signInFailed': 'Sign-in failed',
  'auth.signInRequired': 'Sign-in required',
  'auth.weakPassword': 'Password does not meet the requirements',
} as const
