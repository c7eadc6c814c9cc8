/** What other features use of the step-up feature: re-run an action after signing in again. */
export { StepUpProvider, useStepUp } from './step-up.tsx'
