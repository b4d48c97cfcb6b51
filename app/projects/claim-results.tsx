// Projects > results: per claim its triangulation status and the judged sources, each labelled
// supporting / contradicting / neutral with grade and tier, and their evidence sentences as
// buttons that open the document at the sentence. All source text rendered as text.
import { formatPages } from '../../workers/shared/pages';
import { claimCheckOf, type ClaimEvidenceView } from '../../workers/shared/projects-api';
import { checkClaims, openAt } from '../state/project-checks';
import { useProjectStore } from '../state/project-store';

const ROLE_LABEL: Record<ClaimEvidenceView['role'], string> = {
  supporting: 'Supporting',
  contradicting: 'Contradicting',
  neutral: 'Neutral',
};

/** What checked the source's sentences, said to the user beside its verdict. */
const JUDGED_BY: Record<NonNullable<ClaimEvidenceView['judgedBy']>, string> = {
  'pair-model': "judged by Sift's pair model (claim and sentence read together)",
  features:
    'judged by the LLM-free stance model (word and meaning features; pair model not loaded)',
};

/** The judged sentence's stance and how sure the judge was of it. */
function sentenceVerdict(s: ClaimEvidenceView['sentences'][number]): string {
  const k = s.stance === 'SUPPORT' ? 0 : s.stance === 'CONTRADICT' ? 1 : 2;
  return `${s.stance.toLowerCase()} ${Math.round(s.probs[k] * 100)}%`;
}

function Evidence({ e }: { e: ClaimEvidenceView }) {
  const p = e.provenance;
  const shown = e.sentences.filter((s) => s.evidence);
  const sentences = shown.length ? shown : e.sentences.slice(0, 1);
  return (
    <li className={`evidence ${e.role}`} data-testid="evidence" data-role={e.role}>
      <span className={`role-badge ${e.role}`}>{ROLE_LABEL[e.role]}</span>{' '}
      <strong>{p.title || p.location}</strong>{' '}
      <span className="path">
        {p.location} · grade {p.grade} · tier {p.tier} · {p.sourceType}
      </span>
      <ul>
        {sentences.map((s) => (
          <li key={s.start}>
            <button
              className="link sentence"
              onClick={() => void openAt(e.documentId, s.start, s.end)}
              aria-label={`Open ${p.title || p.location} at: ${s.text}`}
              data-testid="evidence-sentence"
            >
              “{s.text}”
            </button>{' '}
            {s.pages && <small data-testid="evidence-page">{formatPages(s.pages)} · </small>}
            <small>({sentenceVerdict(s)})</small>
          </li>
        ))}
      </ul>
      <small className="hint" data-testid="evidence-judged-by">
        {JUDGED_BY[e.judgedBy ?? 'features']}
      </small>
    </li>
  );
}

const STATUSES = ['VERIFIED', 'LIKELY', 'UNVERIFIED', 'CONTESTED'] as const;

/** How many claims have each status (and how many are not checked yet). */
function StatusSummary() {
  const claims = useProjectStore((s) => s.claims);
  const counts = new Map<string, number>();
  for (const c of claims) {
    const status = claimCheckOf(c)?.status ?? 'NOT CHECKED';
    counts.set(status, (counts.get(status) ?? 0) + 1);
  }
  return (
    <p className="hint" data-testid="claims-summary">
      {[...STATUSES, 'NOT CHECKED' as const]
        .filter((s) => counts.has(s))
        .map((s) => `${s} ${counts.get(s)}`)
        .join(' · ')}
    </p>
  );
}

export function ClaimResults() {
  const claims = useProjectStore((s) => s.claims);
  const run = useProjectStore((s) => s.run);
  if (claims.length === 0) return null;
  return (
    <section className="claim-results" aria-labelledby="results-h">
      <h3 id="results-h">Triangulation</h3>
      <StatusSummary />
      <ol className="claim-list">
        {claims.map((c) => {
          const v = claimCheckOf(c);
          return (
            <li key={c.id} className="claim" data-testid="claim-row">
              <div className="claim-head">
                <span
                  className={`badge ${v ? v.status.toLowerCase() : 'unchecked'}`}
                  data-testid="claim-status"
                >
                  {v ? v.status : 'NOT CHECKED'}
                </span>{' '}
                <span className="claim-text">{c.text}</span>{' '}
                {v && (
                  <small>
                    {v.independentSupport} independent supporting source(s)
                    {v.minGrade ? `, grade ${v.minGrade} or better` : ''}
                  </small>
                )}{' '}
                <button
                  className="link no-print"
                  disabled={run !== null}
                  onClick={() => void checkClaims([c.id])}
                  aria-label={`Check claim: ${c.text}`}
                >
                  {v ? 'Re-check' : 'Check'}
                </button>
              </div>
              {v && v.evidence.length === 0 && (
                <p className="hint">No source in the project speaks to this claim.</p>
              )}
              {v && v.evidence.length > 0 && (
                <ul className="evidence-list">
                  {v.evidence.map((e) => (
                    <Evidence key={e.documentId} e={e} />
                  ))}
                </ul>
              )}
              {v && v.skipped.length > 0 && (
                <p className="hint">{v.skipped.length} source(s) were deleted during the check.</p>
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}
