/** Plans, trials and the paywall. */
export const plansEn = {
  'plans.paymentRequired':
    'Your 14-day trial has ended. To continue creating or editing prompts, please choose a plan.',
  'plans.paymentRequiredTeam':
    "This team's 14-day trial has ended. To continue creating or editing its prompts, a team admin needs to choose a plan.",
  'plans.promptLimitReached':
    'You have reached the limit of {max} prompts on your plan. Choose a larger plan to create more.',
  'plans.promptLimitReachedTeam':
    'This team has reached the limit of {max} prompts on its plan. A team admin can choose a larger plan.',
  'plans.memberLimitReached':
    'This team has reached its limit of {max} members (pending invitations included). A team admin can choose a larger plan.',
  'plans.apiAccessLocked':
    'API access is not included in your plan. Choose a plan with API access to use it.',
  'plans.webhooksLocked': 'Webhooks are not included in your plan. Choose a plan with webhooks to use them.',
  'plans.checkFailed': 'Your plan could not be checked, so nothing was saved. Please try again.',
  'plans.planInvalid': 'Choose Free, Pro or Team',
  'plans.planNotOffered': 'This plan is not available here',
  'plans.contextInvalid': 'Context must be personal or team',
  'plans.subjectNotFound': 'No such user or team',
  'plans.statusInvalid': 'Status must be pending, granted or cancelled',
  'plans.alreadyOnPlan': 'This plan is already active',
  'plans.requestNotFound': 'Plan request not found',
  'plans.requestNotPending': 'This request is no longer pending',
  'plans.mail.grantedSubject': 'Your Promptfolio plan is active',
  'plans.mail.grantedBody': 'The {plan} plan you requested is now active.',
  'plans.mail.detailSpace': 'Space',
  'plans.mail.action': 'Open billing',
  'plans.name.free': 'Free',
  'plans.name.pro': 'Pro',
  'plans.name.team': 'Team',
} as const
