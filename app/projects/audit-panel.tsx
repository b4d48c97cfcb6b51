// Projects > citation audit: a pasted draft (citations [n] with a reference list "[n] path or
// URL" at the end) or a kept answer; each citation scored against its source: PASS / REVIEW /
// SOURCE_NOT_INDEXED, with the passage to open. Everything shown as text.
import { formatPages } from '../../workers/shared/pages';
import { auditAnswer, openAt, replaceCitation, runAudit } from '../state/project-checks';
import { useAppStore } from '../state/app-store';
import { useProjectStore } from '../state/project-store';
import { useKeptAnswers } from './kept-answers';
import { ColumnHeads } from '../components/column-heads';

function AnswerPicker() {
  const answers = useKeptAnswers();
  if (answers.length === 0) return null;
  return (
    <label>
      Or audit a kept answer{' '}
      <select
        defaultValue=""
        onChange={(e) => e.target.value && void auditAnswer(Number(e.target.value))}
        data-testid="audit-answer"
      >
        <option value="">choose…</option>
        {answers.map((a) => (
          <option key={a.id} value={a.id}>
            {a.question.slice(0, 80)}
          </option>
        ))}
      </select>
    </label>
  );
}

/** One labelled group of documents as options (nothing when the group is empty). */
function DocumentGroup({
  label,
  documents,
}: {
  label: string;
  documents: ReadonlyArray<{ id: number; title: string; path: string }>;
}) {
  if (documents.length === 0) return null;
  return (
    <optgroup label={label}>
      {documents.map((d) => (
        <option key={d.id} value={d.id}>
          {d.title || d.path}
        </option>
      ))}
    </optgroup>
  );
}

/** Another source for one citation: the project's documents first, then the library's. */
function ReplaceCitation({ index, current }: { index: number; current: number | null }) {
  const documents = useAppStore((s) => s.documents);
  const members = new Set(useProjectStore((s) => s.documentIds));
  const auditing = useProjectStore((s) => s.auditing);
  const others = documents.filter((d) => d.id !== current);
  const inProject = others.filter((d) => members.has(d.id));
  const rest = others.filter((d) => !members.has(d.id)).slice(0, 200);
  if (others.length === 0) return null;
  return (
    <select
      className="no-print"
      value=""
      disabled={auditing}
      onChange={(e) => e.target.value && void replaceCitation(index, Number(e.target.value))}
      aria-label="Replace the citation with another source"
      data-testid="audit-replace"
    >
      <option value="">replace with…</option>
      <DocumentGroup label="In this project" documents={inProject} />
      <DocumentGroup label="Library" documents={rest} />
    </select>
  );
}

export function AuditPanel() {
  const draft = useProjectStore((s) => s.draft);
  const setDraft = useProjectStore((s) => s.setDraft);
  const fromAnswer = useProjectStore((s) => s.auditAnswerId);
  const auditing = useProjectStore((s) => s.auditing);
  const rows = useProjectStore((s) => s.audit);
  return (
    <section className="audit-panel" aria-labelledby="audit-h">
      <h3 id="audit-h">Draft and citation audit</h3>
      <label htmlFor="audit-draft" className="hint no-print">
        Paste a draft with citations like [1] and its references at the end, one per line (“[1]
        notes/paper.txt” — a library path, URL or title).
      </label>
      <textarea
        id="audit-draft"
        rows={6}
        className="no-print"
        value={draft}
        // An edited answer keeps its references; clearing the box lets go of the answer.
        onChange={(e) => setDraft(e.target.value, e.target.value.trim() ? fromAnswer : null)}
        data-testid="audit-draft"
      />
      {fromAnswer !== null && (
        <p className="hint">The citations resolve through the kept answer’s references.</p>
      )}
      <div className="actions no-print">
        <button
          onClick={() => void runAudit()}
          disabled={!draft.trim() || auditing}
          data-testid="audit-run"
        >
          {auditing ? 'Auditing…' : 'Audit citations'}
        </button>
        <AnswerPicker />
      </div>
      {rows && rows.length === 0 && (
        <p className="hint" data-testid="audit-empty">
          No citation found in the draft.
        </p>
      )}
      {rows && rows.length > 0 && (
        <table className="diag-table audit-table" data-testid="audit-table">
          <ColumnHeads columns={['Claim', 'Cited source', 'Passage', 'Score', 'Status']} />
          <tbody>
            {rows.map((r, i) => (
              <tr key={i} data-testid="audit-row" data-status={r.status}>
                <td>{r.claim}</td>
                <td>
                  [{r.n}] {r.citedSource}
                </td>
                <td>
                  {r.passage && r.documentId !== null ? (
                    <button
                      className="link sentence"
                      onClick={() => void openAt(r.documentId!, r.passage!.start, r.passage!.end)}
                      aria-label={`Open the passage: ${r.passage.text}`}
                    >
                      “{r.passage.text}”
                    </button>
                  ) : (
                    '—'
                  )}
                  {r.passage?.pages && (
                    <small data-testid="audit-page"> ({formatPages(r.passage.pages)})</small>
                  )}
                </td>
                <td>{r.supportScore === null ? '' : r.supportScore.toFixed(2)}</td>
                <td>
                  <span className={`badge ${r.status.toLowerCase()}`} data-testid="audit-status">
                    {r.status}
                  </span>
                  {r.stance === 'CONTRADICT' && <small> (source contradicts)</small>}
                  {r.status !== 'PASS' && <ReplaceCitation index={i} current={r.documentId} />}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
