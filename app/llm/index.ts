// Query-optimisation UI pieces for the app shell (wired by the lead).
export { LlmSettings, type LlmSettingsProps } from './llm-settings';
export { QueryPlanPanel, type QueryPlanPanelProps } from './query-plan-panel';
