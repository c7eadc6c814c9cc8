/** The spec's business constants. One place, shared by server and web. */
export const PASSWORD_MIN = 12
export const PASSWORD_MAX = 128
export const LOGIN_CODE_LENGTH = 6
export const LOGIN_CODE_TTL_SECONDS = 10 * 60
export const DISPLAY_NAME_MAX = 80
export const INVITATION_VALID_DAYS = 7
export const TRIAL_DAYS = 14

export const PROMPTS_PAGE = { default: 20, max: 20 } as const
export const VERSIONS_PAGE = { default: 20, max: 50 } as const
export const CONVERSATIONS_PAGE = { default: 25, max: 100, listScreen: 50, dashboard: 5 } as const
export const MESSAGES_PAGE = { default: 50, max: 100, screen: 100 } as const
export const OUTBOX_PAGE = { default: 50, max: 100 } as const
export const CONVERSATION_SNAPSHOT_SIZE = 10

export const HISTORY_PREVIEW_LENGTH = 200
/** Prompt version lookups are cached this long. */
export const PROMPT_VERSION_CACHE_MS = 60_000
export const CARD_TAG_LIMIT = 3
export const SEARCH_DEBOUNCE_MS = 300
export const COPIED_INDICATOR_MS = 2000
/** The client debug log keeps the last this many entries (the spec, under the toast rules). */
export const DEBUG_LOG_ENTRIES = 100

export const DELAYS_MS = {
  signupRedirect: 2000,
  resetRedirect: 3000,
  legacySignupRedirect: 3000,
  sessionVerification: 1500,
  callbackSuccess: 1000,
  callbackError: 3000,
  callbackExchangeError: 5000,
  tabClose: 2000,
} as const

export const OAUTH_POPUP = { width: 500, height: 600, pollMs: 1000, timeoutMs: 300_000 } as const
export const DEFAULT_POST_AUTH_PATH = '/prompts'

/** Wrong codes one client may try for one address before it must request a new code. */
export const LOGIN_CODE_MAX_ATTEMPTS = 5
/** After this many wrong codes from all clients together an emailed code is dead. */
export const LOGIN_CODE_TOTAL_ATTEMPTS = 15
/** How long an emailed password reset link works (once). */
export const RESET_LINK_TTL_SECONDS = 30 * 60
/** How long the reset form may be used after the link was opened. */
export const RECOVERY_SESSION_TTL_SECONDS = 15 * 60
/** Sessions: expire after this long unused (idle), and at the latest this long after sign-in (absolute). */
export const SESSION_IDLE_SECONDS = 7 * 24 * 60 * 60
export const SESSION_ABSOLUTE_SECONDS = 30 * 24 * 60 * 60
/**
 * How long a sign-in counts as recent: creating API keys and webhook endpoints, seeing a webhook's
 * secret and the global admins' changes need one this young (or a re-authentication, which is one).
 */
export const RECENT_SIGN_IN_SECONDS = 10 * 60
/** The highest version number a prompt can have (PostgreSQL's `integer`): a higher one names no version. */
export const VERSION_NUMBER_MAX = 2_147_483_647
