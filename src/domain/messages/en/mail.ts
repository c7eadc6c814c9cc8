/** What the app's emails say, and the admin email tools' messages. */
export const mailEn = {
  'mail.greeting': 'Hello,',
  'mail.footer': 'This email was sent by Promptfolio ({appUrl}).',
  'mail.linkFallback': 'If the button does not work, copy this link into your browser:',
  'mail.code.subject': 'Your Promptfolio sign-in code',
  'mail.code.intro': 'Use this code to sign in to Promptfolio:',
  'mail.code.action': 'Enter the code',
  'mail.code.validity': 'The code is valid for 10 minutes and works once.',
  'mail.code.ignore': 'If you did not try to sign in, you can ignore this email.',
  'mail.reset.subject': 'Reset your Promptfolio password',
  'mail.reset.intro': 'Someone asked to reset the password of your Promptfolio account.',
  'mail.reset.action': 'Choose a new password',
  'mail.reset.validity': 'The link works once and expires in 30 minutes.',
  'mail.reset.ignore': 'If this was not you, ignore this email: your password stays as it is.',
  'mail.test.subject': 'Promptfolio test email',
  'mail.test.body': 'This is a test email sent from the email debug page by {admin}. Delivery works.',
  'mail.notFound': 'Mail not found',
  'mail.notRetryable': 'Only mail that failed can be sent again.',
  'mail.access.keySubject': 'A new Promptfolio API key was created',
  'mail.access.keyPersonal':
    'An API key was just created for your personal prompts. Whoever holds its secret can use the API as you until the key is revoked.',
  'mail.access.keyTeam':
    'An API key was just created for a team you administer. Whoever holds its secret can use the team’s prompts through the API until the key is revoked.',
  'mail.access.keyAction': 'Review API keys',
  'mail.access.detailKey': 'Key',
  'mail.access.webhookSubject': 'A new Promptfolio webhook endpoint was created',
  'mail.access.webhookPersonal':
    'A webhook endpoint was just created for your personal space. It receives the events it subscribes to, prompt texts included, until it is disabled or deleted.',
  'mail.access.webhookTeam':
    'A webhook endpoint was just created for a team you administer. It receives the events it subscribes to, the team’s prompt texts included, until it is disabled or deleted.',
  'mail.access.webhookAction': 'Review webhooks',
  'mail.access.detailWebhook': 'Endpoint',
  'mail.access.detailTeam': 'Team',
  'mail.access.detailBy': 'Created by',
  'mail.access.ifNotYou':
    'If you do not know about it, revoke it now, then change your password and choose to revoke your API keys and disable your webhooks with it.',
} as const
