// Diagnostics: over the answers asked on this device (the answer history), the evaluator's
// decision distribution, how often a correction or the web step ran, breaker trips, the checker's
// labels, and latency per path and per step (p50 / p95). Computed in the database worker.
import { useEffect } from 'react';
import { exportAnswerHistory, refreshDiagnostics } from '../state/answer-actions';
import { useAnswerStore } from '../state/answer-store';
import type { LatencyStats } from '../../workers/shared/answer-history-api';

const pct = (v: number) => `${(v * 100).toFixed(1)}%`;

function LatencyTable({
  rows,
  label,
  testid,
}: {
  rows: Record<string, LatencyStats>;
  label: string;
  testid: string;
}) {
  const entries = Object.entries(rows);
  if (entries.length === 0) return null;
  return (
    <table className="diag-table" data-testid={testid}>
      <thead>
        <tr>
          <th>{label}</th>
          <th>answers</th>
          <th>p50</th>
          <th>p95</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([k, s]) => (
          <tr key={k}>
            <td>{k}</td>
            <td>{s.count}</td>
            <td>{Math.round(s.p50)} ms</td>
            <td>{Math.round(s.p95)} ms</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function DiagnosticsView() {
  const d = useAnswerStore((s) => s.diagnostics);
  useEffect(() => {
    void refreshDiagnostics();
  }, []);
  return (
    <section className="diagnostics" data-testid="diagnostics-view">
      <h2>Answer diagnostics</h2>
      <p className="hint">
        Over the answers asked on this device and kept in your library.{' '}
        <button className="link" onClick={() => void refreshDiagnostics()}>
          Refresh
        </button>{' '}
        <button className="link" onClick={() => void exportAnswerHistory()}>
          Export the answers (JSON)
        </button>
      </p>
      {!d || d.answers === 0 ? (
        <p className="empty" data-testid="diagnostics-empty">
          No answers yet: ask a question in the Answer view (Alt+4).
        </p>
      ) : (
        <>
          <dl className="diag-figures" data-testid="diagnostics-figures">
            <dt>Answers</dt>
            <dd data-testid="diag-answers">{d.answers}</dd>
            <dt>Decisions</dt>
            <dd data-testid="diag-decisions">
              CORRECT {d.decisions.CORRECT} · AMBIGUOUS {d.decisions.AMBIGUOUS} · INCORRECT{' '}
              {d.decisions.INCORRECT}
            </dd>
            <dt>Correction rate</dt>
            <dd data-testid="diag-correction">{pct(d.correctionRate)}</dd>
            <dt>Web trigger rate</dt>
            <dd data-testid="diag-web">
              {pct(d.webTriggerRate)} (web results used in {pct(d.webUsedRate)}; {d.webFailures}{' '}
              failed)
            </dd>
            <dt>Breaker trips</dt>
            <dd data-testid="diag-breaker">{d.breakerTrips}</dd>
            <dt>“Library does not hold this”</dt>
            <dd>{pct(d.notFoundRate)}</dd>
            <dt>Partial generated answers</dt>
            <dd>{d.partialAnswers}</dd>
            <dt>Sentences</dt>
            <dd data-testid="diag-labels">
              {d.labels.supported} supported · {d.labels.partly} partly · {d.labels.unsupported}{' '}
              unsupported
            </dd>
          </dl>
          <h3>Latency per path</h3>
          <LatencyTable rows={d.latencyByPath} label="path" testid="diag-latency-path" />
          <h3>Latency per step</h3>
          <LatencyTable rows={d.latencyByStep} label="step" testid="diag-latency-step" />
        </>
      )}
    </section>
  );
}
