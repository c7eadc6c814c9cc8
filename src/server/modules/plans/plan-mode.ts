/**
 * The start-up line that makes the plan mode a visible choice: a hosted service wants plans (the
 * default), a team running its own copy usually does not, and would otherwise meet the trial's
 * paywall at its 11th prompt without knowing why.
 */
export function planModeNotice(plansEnabled: boolean): string {
  return plansEnabled
    ? 'PLANS=on: trials, plan limits and the paywall apply (a hosted service). Installing it for your own team? Start with PLANS=off for no limits.'
    : 'PLANS=off: no trials, limits or paywall (a private installation).'
}
