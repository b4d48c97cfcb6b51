// Diagnostics over the answers kept on this device (issue 16, item 5): decision distribution,
// correction and web trigger rates, breaker trips, latency per path and per step (p50/p95), and
// the checker's labels. Pure: reads the history's records, imports only workers/shared.
import type { CragDecision, SupportLabel } from '../shared/answer-api';
import type { AnswerDiagnostics, LatencyStats } from '../shared/answer-history-api';
import type { AnswerRecord } from '../store/answer-history';

/** Nearest-rank percentile of ascending values (p in 0..100). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

function stats(values: number[]): LatencyStats {
  const sorted = [...values].sort((a, b) => a - b);
  return { count: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
}

/**
 * The path an answer took: its decision, the corrective actions whose results were used, and
 * the answer mode, e.g. `INCORRECT + expansion · extractive`.
 */
export function answerPath(record: Pick<AnswerRecord, 'crag' | 'mode'>): string {
  const applied = record.crag.actions
    .filter((a) => a.applied && a.kind !== 'none' && a.kind !== 'refine')
    .map((a) => a.kind);
  const actions = applied.length ? ` + ${[...new Set(applied)].join(' + ')}` : '';
  return `${record.crag.decision}${actions} · ${record.mode}`;
}

function groupStats(entries: Array<[string, number]>): Record<string, LatencyStats> {
  const groups = new Map<string, number[]>();
  for (const [key, ms] of entries) {
    const list = groups.get(key);
    if (list) list.push(ms);
    else groups.set(key, [ms]);
  }
  return Object.fromEntries(
    [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, stats(v)]),
  );
}

export function answerDiagnostics(records: AnswerRecord[]): AnswerDiagnostics {
  const n = records.length;
  const rate = (count: number) => (n === 0 ? 0 : count / n);
  const decisions: Record<CragDecision, number> = { CORRECT: 0, AMBIGUOUS: 0, INCORRECT: 0 };
  const labels: Record<SupportLabel, number> = { supported: 0, partly: 0, unsupported: 0 };
  let corrected = 0;
  let webTriggered = 0;
  let webUsed = 0;
  let breakerTrips = 0;
  let webFailures = 0;
  let notFound = 0;
  let partial = 0;
  for (const r of records) {
    decisions[r.crag.decision]++;
    for (const k of Object.keys(labels) as SupportLabel[]) labels[k] += r.labels[k] ?? 0;
    const actions = r.crag.actions;
    if (
      actions.some(
        (a) => a.applied && (a.kind === 'expansion' || a.kind === 'rerank' || a.kind === 'web'),
      )
    )
      corrected++;
    const web = actions.filter((a) => a.kind === 'web' && a.status !== 'skipped');
    if (web.length) webTriggered++;
    if (r.crag.webUsed) webUsed++;
    webFailures += web.filter((a) => a.status === 'failed').length;
    breakerTrips += web.filter((a) => a.errorCode === 'CIRCUIT_OPEN').length;
    if (r.notFound) notFound++;
    if (r.partial) partial++;
  }
  return {
    answers: n,
    decisions,
    correctionRate: rate(corrected),
    webTriggerRate: rate(webTriggered),
    webUsedRate: rate(webUsed),
    breakerTrips,
    webFailures,
    notFoundRate: rate(notFound),
    partialAnswers: partial,
    latencyByPath: groupStats(records.map((r) => [answerPath(r), r.crag.totalMs])),
    latencyByStep: groupStats(
      records.flatMap((r) => r.crag.steps.map((s): [string, number] => [s.kind, s.ms])),
    ),
    labels,
    since: n ? Math.min(...records.map((r) => r.createdAt)) : null,
  };
}
