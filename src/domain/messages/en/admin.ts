/** The global admin area's server messages. */
export const adminEn = {
  'admin.userNotFound': 'User not found',
  'admin.roleInvalid': "Role must be 'user' or 'global_admin'",
  'admin.lastAdmin': 'The last global admin cannot be demoted. Make someone else global admin first.',
  'admin.confirmSelf': 'You are about to remove your own global admin role. Confirm to continue.',
  'admin.adminEmailRole':
    'This account is the installation’s ADMIN_EMAIL and becomes global admin again at its next sign-in. Change ADMIN_EMAIL first.',
} as const
