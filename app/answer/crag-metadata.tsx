// How an answer was made (CRAG metadata): the evaluator's decision and query score against the
// fitted thresholds, each passage's score and its components (and LLM grade), the corrective
// actions with their outcome, whether the web and an LLM were used, and the latency per step.
import { passageBand, queryBand, type Answer } from '../../workers/shared/answer-api';

const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(3));

export function CragMetadataPanel({ answer }: { answer: Answer }) {
  const c = answer.crag;
  const t = c.evaluator.thresholds;
  const band = queryBand(c.queryScore, t, c.decision);
  return (
    <details className="crag-meta" data-testid="crag-meta">
      <summary>
        How this answer was made: <strong data-testid="crag-decision">{c.decision}</strong> · query
        score {c.queryScore.toFixed(3)}{' '}
        <span className="band" data-testid="crag-band" data-band={band}>
          {band} relevance
        </span>{' '}
        · web {c.webUsed ? 'used' : 'not used'} · {Math.round(c.totalMs)} ms
      </summary>
      <p>
        CORRECT at a query score ≥ {t.upper}
        {t.correctMinCos !== undefined &&
          ` when the best passage agrees in meaning (cosine ≥ ${t.correctMinCos}) or in words (term coverage ≥ ${t.correctMinCovW ?? '–'})`}
        , INCORRECT below {t.lower}, a passage counts as relevant at ≥ {t.passage} (passage bands:
        high ≥ {Math.max(0.5, t.passage)}, medium ≥ {t.passage}, low below). Fitted model:{' '}
        {c.evaluator.fittedModel}; embedding model: {c.modelId}. Tokens: {c.retrievedTokens}{' '}
        retrieved, {c.keptTokens} kept after refinement.
        {c.evaluator.llm &&
          ` LLM grading (${c.evaluator.llm.backend}): ${c.evaluator.llm.graded} graded, ${c.evaluator.llm.failed} failed, ${Math.round(c.evaluator.llm.ms)} ms.`}
      </p>
      <h4>Steps</h4>
      <ul data-testid="crag-steps">
        {c.steps.map((s, i) => (
          <li key={i} data-testid="crag-step" data-kind={s.kind}>
            {s.kind}: {Math.round(s.ms)} ms{s.note ? ` — ${s.note}` : ''}
          </li>
        ))}
      </ul>
      <h4>Corrective actions</h4>
      <ul data-testid="crag-actions">
        {c.actions.length === 0 && <li>none</li>}
        {c.actions.map((a, i) => (
          <li key={i} data-testid="crag-action" data-kind={a.kind} data-status={a.status}>
            {a.kind}: {a.status}
            {a.applied ? ', applied' : ''} ({Math.round(a.ms)} ms) — {a.note}
            {a.technique ? ` · ${a.technique}` : ''}
            {a.query ? ` · query “${a.query}”` : ''}
            {a.results !== undefined ? ` · ${a.results} results` : ''}
            {a.errorCode ? ` · ${a.errorCode}` : ''}
          </li>
        ))}
      </ul>
      <h4>Passages</h4>
      <table className="crag-passages">
        <thead>
          <tr>
            <th>#</th>
            <th>Document</th>
            <th>Score</th>
            <th>LLM</th>
            <th>Components</th>
          </tr>
        </thead>
        <tbody>
          {c.evaluator.passages.map((p) => (
            <tr key={p.chunkId} data-testid="crag-passage">
              <td>{p.rank}</td>
              <td>{p.title}</td>
              <td>
                {p.finalScore.toFixed(3)}{' '}
                <span className="band" data-testid="crag-passage-band">
                  {passageBand(p.finalScore, t)}
                </span>
              </td>
              <td>{p.llmScore === undefined ? '—' : p.llmScore.toFixed(2)}</td>
              <td className="components">
                {Object.entries(p.components)
                  .map(([k, v]) => `${k} ${fmt(v)}`)
                  .join(' · ')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
