// Diagnostics over the answers kept on this device (issue 16, item 5): decision distribution,
// correction and web trigger rates, breaker trips, latency per path and per step (p50/p95), and
// the checker's labels. Pure: reads the history's records; imports types only.
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

/** The web actions an answer took (a skipped one was never sent). */
function webActions(r: AnswerRecord): AnswerRecord['crag']['actions'] {
  return r.crag.actions.filter((a) => a.kind === 'web' && a.status !== 'skipped');
}

/** Whether a corrective action (expansion, rerank, web) changed what the answer used. */
function corrected(r: AnswerRecord): boolean {
  return r.crag.actions.some(
    (a) => a.applied && (a.kind === 'expansion' || a.kind === 'rerank' || a.kind === 'web'),
  );
}

export function answerDiagnostics(records: AnswerRecord[]): AnswerDiagnostics {
  const n = records.length;
  const rate = (count: number) => (n === 0 ? 0 : count / n);
  /** Records for which `test` holds. */
  const count = (test: (r: AnswerRecord) => boolean) => records.filter(test).length;
  /** `of` summed over the records. */
  const sum = (of: (r: AnswerRecord) => number) => records.reduce((t, r) => t + of(r), 0);
  const decisions: Record<CragDecision, number> = { CORRECT: 0, AMBIGUOUS: 0, INCORRECT: 0 };
  const labels: Record<SupportLabel, number> = { supported: 0, partly: 0, unsupported: 0 };
  for (const r of records) {
    decisions[r.crag.decision]++;
    for (const k of Object.keys(labels) as SupportLabel[]) labels[k] += r.labels[k] ?? 0;
  }
  return {
    answers: n,
    decisions,
    correctionRate: rate(count(corrected)),
    webTriggerRate: rate(count((r) => webActions(r).length > 0)),
    webUsedRate: rate(count((r) => r.crag.webUsed)),
    breakerTrips: sum((r) => webActions(r).filter((a) => a.errorCode === 'CIRCUIT_OPEN').length),
    webFailures: sum((r) => webActions(r).filter((a) => a.status === 'failed').length),
    notFoundRate: rate(count((r) => r.notFound)),
    partialAnswers: count((r) => r.partial),
    latencyByPath: groupStats(records.map((r) => [answerPath(r), r.crag.totalMs])),
    latencyByStep: groupStats(
      records.flatMap((r) => r.crag.steps.map((s): [string, number] => [s.kind, s.ms])),
    ),
    labels,
    since: n ? Math.min(...records.map((r) => r.createdAt)) : null,
  };
}
