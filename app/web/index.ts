// The web search UI pieces the app shell mounts. Each takes the web worker's API (or the part of
// it it needs) as a prop; nothing here creates workers.
export { WebProviderSettings, type ProviderSettingsProps } from './provider-settings';
export { NetworkLedgerView, type NetworkLedgerProps } from './network-ledger';
export { CredibilityEditor, TIER_LABELS, type CredibilityEditorProps } from './credibility-editor';
export {
  WebResultsList,
  WebSearchPanel,
  type ImportState,
  type WebResultsListProps,
  type WebSearchPanelProps,
} from './web-results';
export {
  importWebResult,
  webPageToDocument,
  type ImportWebOutcome,
  type WebImportDeps,
} from './import-web-result';
