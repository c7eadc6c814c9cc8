/** What the routes use of the mail feature: the outbox of the admin's email debug page. */
export { useOutbox, useOutboxMail, useRetryMail, useSendTestMail } from './outbox.ts'
