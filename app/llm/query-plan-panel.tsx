// The "query plan" panel: the route taken and why, each step with its status, time and the texts
// it generated (hypothetical document, queries, rewrite, expansion terms), which results each
// retrieval contributed, and a switch per technique with the measurement behind its default
// (workers/shared/technique-evidence.ts). Pure view: receives the plan as a prop.
import type { PlanStep, QueryPlan, TechniqueSwitches } from '../../workers/shared/research-api';
import { techniqueReason } from '../../workers/shared/technique-evidence';

export interface QueryPlanPanelProps {
  plan: QueryPlan | null;
  techniques: TechniqueSwitches;
  onTechniquesChange: (next: TechniqueSwitches) => void;
  /** Optional titles for result ids (e.g. chunk id -> document title). */
  titles?: Record<string, string>;
}

const SWITCHES: Array<[keyof TechniqueSwitches, string]> = [
  ['routing', 'Complexity routing'],
  ['llmRouting', 'Confirm route with the model'],
  ['rewrite', 'Query rewrite'],
  ['hyde', 'HyDE'],
  ['fusion', 'RAG-Fusion queries'],
  ['keyphrases', 'Keyphrase variants'],
  ['rm3', 'RM3 feedback'],
  ['wordnet', 'WordNet synonyms'],
];

function ms(n: number): string {
  return n < 10 ? `${n.toFixed(1)} ms` : `${Math.round(n)} ms`;
}

function StepRow({ step, titles }: { step: PlanStep; titles: Record<string, string> | undefined }) {
  const name = (id: string) => titles?.[id] ?? id;
  return (
    <li
      className={`plan-step plan-${step.status}`}
      data-testid={`plan-step-${step.id}`}
      data-status={step.status}
    >
      <div>
        <strong>{step.label}</strong> <span data-testid="plan-step-status">{step.status}</span>
        {step.status !== 'skipped' && <span> · {ms(step.durationMs)}</span>}
        {step.errorCode && <span> · {step.errorCode}</span>}
        {step.inputFrom && <span> · from {step.inputFrom}</span>}
        {step.note && <span className="plan-note"> · {step.note}</span>}
      </div>
      {step.texts.length > 0 && (
        <ol className="plan-texts" data-testid="plan-step-texts">
          {step.texts.map((t, i) => (
            <li key={i}>{t}</li>
          ))}
        </ol>
      )}
      {step.kind === 'retrieve' && step.resultIds.length > 0 && (
        <p className="plan-results">
          {step.resultIds.length} results
          {step.uniqueIds.length > 0 && (
            <> · only this step found: {step.uniqueIds.slice(0, 5).map(name).join(', ')}</>
          )}
        </p>
      )}
    </li>
  );
}

export function QueryPlanPanel({
  plan,
  techniques,
  onTechniquesChange,
  titles,
}: QueryPlanPanelProps) {
  return (
    <section className="query-plan" data-testid="query-plan">
      <fieldset className="plan-switches">
        <legend>Techniques</legend>
        {SWITCHES.map(([key, label]) => (
          <label key={key}>
            <input
              type="checkbox"
              checked={techniques[key]}
              data-testid={`plan-switch-${key}`}
              onChange={(e) =>
                onTechniquesChange({ ...techniques, [key]: e.currentTarget.checked })
              }
            />{' '}
            {label}
            <small className="plan-why" data-testid={`plan-why-${key}`}>
              {' '}
              {techniqueReason(key)}
            </small>
          </label>
        ))}
      </fieldset>
      {plan ? (
        <>
          <p data-testid="plan-route">
            Route: <strong>{plan.complexity}</strong> — {plan.routeReason} · model: {plan.backend} ·
            total {ms(plan.totalMs)}
          </p>
          <ol className="plan-steps">
            {plan.steps.map((s) => (
              <StepRow key={s.id} step={s} titles={titles} />
            ))}
          </ol>
          <h4>Results and the steps that found them</h4>
          <ol className="plan-final" data-testid="plan-results">
            {plan.results.map((r) => (
              <li key={r.id}>
                {titles?.[r.id] ?? r.id}{' '}
                <small>({r.contributedBy.map((s) => s.replace('retrieve:', '')).join(', ')})</small>
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p>Run a search to see its plan.</p>
      )}
    </section>
  );
}
