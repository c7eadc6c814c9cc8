/** Sign-up, sign-in and account messages. */
export const authEn = {
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
