/** What the routes and other features use of the dashboard: its query, its widgets and their error boundary. */
export {
  AccountWidget,
  ChecklistWidget,
  MilestoneBanner,
  ModelUsageWidget,
  PerformanceWidget,
  PulseWidget,
  StreakBadge,
  TeamMilestoneWidget,
  TopPerformersWidget,
  WeeklyStrip,
} from './figures.tsx'
export {
  ContinueWidget,
  CreateWidget,
  RecentConversationsWidget,
  RecentPromptsWidget,
  TeamPromptsWidget,
} from './lists.tsx'
export { useDashboard, useFailureToast } from './queries.ts'
export { WidgetBoundary } from './widget.tsx'
