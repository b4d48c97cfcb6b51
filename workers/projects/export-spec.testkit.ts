// The section headings of retrieval_audit.md as the spec gives them, in order, for the unit test
// of exports.ts and the e2e test of the downloaded file. Written from the spec, not read from
// exports.ts, so both fail when the export drifts from it. Test support only.
export const RETRIEVAL_AUDIT_HEADINGS = [
  '# Retrieval Quality Audit',
  '## Index Statistics',
  '## Query Performance',
  '## Citation Verification',
  '## Recommendations',
] as const;
