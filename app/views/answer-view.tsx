// Answer: ask a question, see the answer with [n] citations and each sentence's support label
// (unsupported ones visibly marked), click [n] to open the document at the cited strip, copy or
// download it as Markdown, see how it was made (CRAG metadata), and the answers kept on this
// device. Everything is computed in the database worker; text is rendered as text only.
import { useEffect, useRef, useState } from 'react';
import { projectsClient } from '../clients';
import { citeAuthorYear } from '../../workers/shared/biblio';
import { formatPages } from '../../workers/shared/pages';
import { formatSection } from '../../workers/shared/sections';
import { DocumentViewer } from '../components/document-viewer';
import { ImportButtons } from '../components/import-panel';
import { groupReferences } from '../answer/reference-groups';
import { LABEL_TEXT, referenceLocation, tierName } from '../answer/answer-markdown';
import { CragMetadataPanel } from '../answer/crag-metadata';
import { WebReferenceImport } from '../answer/web-reference-import';
import {
  askQuestion,
  cancelAnswer,
  copyAnswerMarkdown,
  deleteKeptAnswer,
  downloadAnswerMarkdown,
  exportAnswerHistory,
  openCitation,
  refreshHistory,
  refreshLlmKind,
  showKeptAnswer,
} from '../state/answer-actions';
import { useAnswerStore, type AnswerModeChoice } from '../state/answer-store';
import { escapeOpenDocument, useAppStore } from '../state/app-store';
import {
  describeReading,
  QUOTED_REASON,
  type AnswerReference,
} from '../../workers/shared/answer-api';
import type { StoredAnswer } from '../../workers/shared/answer-history-api';

export function AnswerView() {
  const open = useAppStore((s) => s.open);
  const ready = useAppStore((s) => s.ready);
  const docCount = useAppStore((s) => s.documents.length);
  const answer = useAnswerStore((s) => s.answer);

  useEffect(() => {
    void refreshLlmKind();
    void refreshHistory();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') escapeOpenDocument();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className={open ? 'search-layout with-viewer' : 'search-layout'}>
      <section className="answer-pane" data-testid="answer-view">
        <QuestionBox />
        {ready && docCount === 0 && (
          <div className="empty" data-testid="answer-empty-library">
            <p>
              Your library is empty, so there is nothing to answer from yet. Import documents first
              — they stay on this device.
            </p>
            <ImportButtons />
          </div>
        )}
        <Streaming />
        {answer && <AnswerPanel answer={answer} />}
        <History />
      </section>
      {open && <DocumentViewer />}
    </div>
  );
}

function QuestionBox() {
  const asking = useAnswerStore((s) => s.asking);
  const problem = useAnswerStore((s) => s.problem);
  return (
    <form
      className="answer-box"
      onSubmit={(e) => {
        e.preventDefault();
        void askQuestion();
      }}
    >
      <QuestionInput />
      <div className="answer-controls">
        <AnswerModeSelect />
        <AnswerOptions />
        {asking ? (
          <button type="button" onClick={() => void cancelAnswer()} data-testid="answer-cancel">
            Stop
          </button>
        ) : (
          <button type="submit" data-testid="answer-ask">
            Ask
          </button>
        )}
      </div>
      {problem && (
        <p className="answer-problem" role="alert" data-testid="answer-problem">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The question; Enter asks, Shift+Enter starts a new line. */
function QuestionInput() {
  const question = useAnswerStore((s) => s.question);
  const setQuestion = useAnswerStore((s) => s.setQuestion);
  const input = useRef<HTMLTextAreaElement>(null);
  return (
    <textarea
      ref={input}
      autoFocus
      rows={2}
      placeholder="Ask a question about your library (Enter to ask, Shift+Enter for a new line)"
      aria-label="Question"
      value={question}
      onChange={(e) => setQuestion(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.shiftKey) {
          e.preventDefault();
          void askQuestion();
        }
      }}
      data-testid="answer-input"
    />
  );
}

/** Auto (the active language model, or extractive without one), extractive or generated. */
function AnswerModeSelect() {
  const modeChoice = useAnswerStore((s) => s.modeChoice);
  const setModeChoice = useAnswerStore((s) => s.setModeChoice);
  const llmKind = useAnswerStore((s) => s.llmKind);
  return (
    <select
      aria-label="Answer mode"
      value={modeChoice}
      onChange={(e) => setModeChoice(e.currentTarget.value as AnswerModeChoice)}
      data-testid="answer-mode"
    >
      <option value="auto">
        {/* Not "Extractive" here too: with no model, Auto answers extractively, but the menu
            has one Extractive option. */}
        {llmKind === 'none' ? 'Auto (no language model active)' : `Auto: written by ${llmKind}`}
      </option>
      <option value="extractive">Extractive: sentences from your documents</option>
      <option value="generated" disabled={llmKind === 'none'}>
        Generated by the language model{llmKind === 'none' ? ' (none active)' : ''}
      </option>
    </select>
  );
}

/** Whether web providers may help, and whether multi-hop retrieval may run. */
function AnswerOptions() {
  const allowWeb = useAnswerStore((s) => s.allowWeb);
  const setAllowWeb = useAnswerStore((s) => s.setAllowWeb);
  const maxHops = useAnswerStore((s) => s.maxHops);
  const setMaxHops = useAnswerStore((s) => s.setMaxHops);
  return (
    <>
      <label className="check">
        <input
          type="checkbox"
          checked={allowWeb}
          onChange={(e) => setAllowWeb(e.currentTarget.checked)}
          data-testid="answer-allow-web"
        />{' '}
        Let enabled web providers help when the library falls short
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={maxHops > 0}
          onChange={(e) => setMaxHops(e.currentTarget.checked ? 2 : 0)}
          data-testid="answer-multi-hop"
        />{' '}
        Multi-hop: up to 2 more searches from the evidence found while the retrieval is uncertain
        (each hop is listed under Corrective actions)
      </label>
    </>
  );
}

/** The streamed preview shows the reply's tail only: a runaway reply cannot grow the page. */
const STREAM_PREVIEW_CHARS = 2000;

function Streaming() {
  const asking = useAnswerStore((s) => s.asking);
  const streamed = useAnswerStore((s) => s.streamed);
  if (!asking) return null;
  const shown =
    streamed.length > STREAM_PREVIEW_CHARS ? `…${streamed.slice(-STREAM_PREVIEW_CHARS)}` : streamed;
  return (
    <div className="answer-streaming" aria-live="polite" data-testid="answer-streaming">
      {shown ? shown : 'Finding and checking passages…'}
    </div>
  );
}

/** What the sentence check compares, for a label without a reason of its own. */
const CHECKED_BY =
  'the checker compared the sentence with the passages it cites (shared words and meaning)';

function AnswerPanel({ answer }: { answer: StoredAnswer }) {
  const refs = new Map(answer.references.map((r) => [r.n, r]));
  return (
    <article
      className="answer"
      data-testid="answer"
      data-mode={answer.mode}
      data-decision={answer.crag.decision}
      data-question={answer.question}
    >
      <h2 className="answer-question">{answer.question}</h2>
      {answer.notices.map((n, i) => (
        <p key={i} className="notice info" data-testid="answer-notice">
          {n}
        </p>
      ))}
      {answer.partial && (
        <p className="notice error" data-testid="answer-partial">
          The language model stopped before finishing: this answer is partial. The sentences below
          are checked as they are.
        </p>
      )}
      {answer.crag.decision === 'AMBIGUOUS' && !answer.notFound && (
        <p className="notice info" data-testid="answer-ambiguous">
          The evidence is mixed: the library holds passages on this topic, but the evaluator is not
          sure any of them answers the question. Read the cited passages before relying on this.
        </p>
      )}
      {answer.notFound && (
        <div className="notice info" data-testid="answer-not-found">
          Your library does not seem to hold the answer to this question.
          {answer.closest.length > 0 && (
            <>
              {' '}
              The closest passages:
              <ul>
                {answer.closest.map((p) => (
                  <li key={p.chunkId}>
                    {p.title} ({p.path}) · passage score {p.finalScore.toFixed(2)}, not judged an
                    answer
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      {answer.crag.relevance && (
        <p
          className="answer-relevance"
          data-testid="answer-relevance"
          data-source={answer.crag.relevance.source}
        >
          {describeReading(answer.crag.relevance)}
        </p>
      )}
      <p className="answer-text" data-testid="answer-text">
        {answer.sentences.map((s, i) => (
          <span
            key={i}
            className={`sentence label-${s.support.label}`}
            data-testid="answer-sentence"
            data-label={s.support.label}
            title={`${LABEL_TEXT[s.support.label]} (score ${s.support.score.toFixed(2)}): ${s.support.reason ?? CHECKED_BY}`}
          >
            {s.support.label === 'unsupported' && (
              <span className="unsupported-flag" aria-label="unsupported">
                ⚠{' '}
              </span>
            )}
            {s.text}
            {s.citations.map((n) => (
              <Citation key={n} n={n} reference={refs.get(n)} />
            ))}
            <span className="label-tag" data-testid="answer-sentence-label">
              {LABEL_TEXT[s.support.label]}
            </span>
            <span className="label-how" data-testid="answer-sentence-check">
              {s.support.reason === QUOTED_REASON
                ? ' (quoted)'
                : ` (checked, ${s.support.score.toFixed(2)})`}
            </span>{' '}
          </span>
        ))}
      </p>
      <div className="answer-actions">
        <button onClick={() => void copyAnswerMarkdown()} data-testid="answer-copy">
          Copy as Markdown
        </button>
        <button onClick={downloadAnswerMarkdown} data-testid="answer-download">
          Download Markdown
        </button>
      </div>
      {answer.references.length > 0 && <References references={answer.references} />}
      <CragMetadataPanel answer={answer} />
      {answer.extractive && (
        <section className="answer-fallback" data-testid="answer-extractive">
          <h3>The extractive answer (sentences from your documents, no language model)</h3>
          <AnswerPanel answer={{ ...answer.extractive, id: answer.id }} />
        </section>
      )}
    </article>
  );
}

function Citation({ n, reference }: { n: number; reference: AnswerReference | undefined }) {
  const missing = !reference || reference.missing;
  const web = reference?.source === 'web';
  return (
    <button
      type="button"
      className={missing ? 'citation missing' : 'citation'}
      data-testid="citation"
      data-n={n}
      data-missing={missing ? 'true' : 'false'}
      disabled={missing || web}
      title={
        missing
          ? 'The cited document is no longer in your library'
          : web
            ? `Web result: ${reference?.url ?? ''}`
            : `Open ${reference?.title ?? ''} at the cited passage`
      }
      onClick={() => reference && void openCitation(reference)}
    >
      [{n}]
    </button>
  );
}

/** The author-year citations of the library documents among `references`. */
function useAuthorYear(references: AnswerReference[]): Map<number, string> {
  const [cites, setCites] = useState(new Map<number, string>());
  const key = references.map((r) => r.documentId ?? '').join(',');
  useEffect(() => {
    let alive = true;
    const ids = [
      ...new Set(references.flatMap((r) => (r.documentId === null ? [] : [r.documentId]))),
    ];
    projectsClient()
      .listBiblio(ids)
      .then((records) => {
        if (!alive) return;
        const m = new Map<number, string>();
        for (const b of records) {
          const c = citeAuthorYear(b);
          if (c) m.set(b.documentId, c);
        }
        setCites(m);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- keyed by the documents cited
  }, [key]);
  return cites;
}

/** Each document once, with every number that cites it (several passages of one document). */
function References({ references }: { references: AnswerReference[] }) {
  const cites = useAuthorYear(references);
  return (
    <section className="answer-references">
      <h3>References</h3>
      <ol data-testid="answer-references">
        {groupReferences(references).map(({ ref: r, numbers }) => (
          <li
            key={r.n}
            value={r.n}
            data-testid="reference"
            data-numbers={numbers.join(',')}
            data-source={r.source}
            data-missing={r.missing ? 'true' : 'false'}
          >
            {numbers.length > 1 && (
              <span className="numbers" data-testid="reference-numbers">
                [{numbers.join(', ')}]{' '}
              </span>
            )}
            {r.documentId !== null && cites.get(r.documentId) && (
              <span className="cite" data-testid="reference-cite">
                {cites.get(r.documentId)}.{' '}
              </span>
            )}
            <span className="title">{r.title}</span> ·{' '}
            <span className="path">{referenceLocation(r)}</span>
            {r.pages && <span data-testid="reference-page">, {formatPages(r.pages)}</span>}
            {r.section && (
              <span data-testid="reference-section"> · {formatSection(r.section)}</span>
            )}{' '}
            ·{' '}
            {r.source === 'web' ? (
              <span className="tier" data-testid="reference-tier">
                web, {tierName(r.tier)}
              </span>
            ) : (
              'library'
            )}
            {r.missing && (
              <span className="missing" data-testid="reference-missing">
                {' '}
                · missing: the document was deleted
              </span>
            )}
            {r.source === 'web' && <WebReferenceImport reference={r} />}
          </li>
        ))}
      </ol>
    </section>
  );
}

function History() {
  const history = useAnswerStore((s) => s.history);
  if (history.length === 0) return null;
  return (
    <section className="answer-history" data-testid="answer-history">
      <h3>
        Answers on this device{' '}
        <button
          className="link"
          onClick={() => void exportAnswerHistory()}
          data-testid="answer-history-export"
        >
          Export all (JSON)
        </button>
      </h3>
      <ul>
        {history.map((h) => (
          <li key={h.id} data-testid="answer-history-item">
            <button className="link" onClick={() => void showKeptAnswer(h.id)}>
              {h.question}
            </button>{' '}
            <span className="hint">
              {h.decision} · {h.mode}
              {h.webUsed ? ' · web' : ''}
              {h.partial ? ' · partial' : ''} · {h.labels.unsupported} unsupported ·{' '}
              {new Date(h.createdAt).toLocaleString()}
            </span>{' '}
            <button
              className="link"
              aria-label={`Delete the answer to ${h.question}`}
              onClick={() => void deleteKeptAnswer(h.id)}
            >
              delete
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
