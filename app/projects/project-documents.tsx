// Projects > documents: the project's members (open, remove) and the library documents to add
// (tick and add, or add all). Titles and paths are untrusted text, rendered as text.
import { useState } from 'react';
import { openDocument } from '../state/actions';
import { useAppStore } from '../state/app-store';
import { addAnswerSources, addDocuments, removeDocument } from '../state/project-actions';
import { useProjectStore } from '../state/project-store';
import { useKeptAnswers } from './kept-answers';

/** Adds the library documents a kept answer cites. */
function AnswerSources() {
  const answers = useKeptAnswers();
  if (answers.length === 0) return null;
  return (
    <label className="no-print">
      Add the sources a kept answer cites{' '}
      <select
        value=""
        onChange={(e) => e.target.value && void addAnswerSources(Number(e.target.value))}
        data-testid="project-add-answer"
      >
        <option value="">choose an answer…</option>
        {answers.map((a) => (
          <option key={a.id} value={a.id}>
            {a.question.slice(0, 80)}
          </option>
        ))}
      </select>
    </label>
  );
}

export function ProjectDocuments() {
  const documents = useAppStore((s) => s.documents);
  const memberIds = useProjectStore((s) => s.documentIds);
  const stats = useProjectStore((s) => s.stats);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const members = new Set(memberIds);
  const inProject = documents.filter((d) => members.has(d.id));
  const others = documents.filter((d) => !members.has(d.id));
  const toggle = (id: number) =>
    setPicked((p) => {
      const next = new Set(p);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <section className="project-docs" aria-labelledby="project-docs-h">
      <h3 id="project-docs-h">
        Sources{' '}
        <small data-testid="project-doc-count">
          {stats ? `${stats.documents} documents · ${stats.chunks} chunks` : ''}
        </small>
      </h3>
      {inProject.length === 0 ? (
        <p className="hint">No documents yet: add library documents below.</p>
      ) : (
        <ul className="member-list" data-testid="project-members">
          {inProject.map((d) => (
            <li key={d.id}>
              <button className="link" onClick={() => void openDocument(d.id, null)}>
                {d.title}
              </button>{' '}
              <span className="path">{d.path}</span>{' '}
              <button
                className="link no-print"
                aria-label={`Remove ${d.title} from the project`}
                onClick={() => void removeDocument(d.id)}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <AnswerSources />
      {others.length > 0 && (
        <details className="no-print" data-testid="project-add">
          <summary>Add library documents ({others.length} not in the project)</summary>
          <ul className="pick-list">
            {others.map((d) => (
              <li key={d.id}>
                <label>
                  <input type="checkbox" checked={picked.has(d.id)} onChange={() => toggle(d.id)} />{' '}
                  {d.title} <span className="path">{d.path}</span>
                </label>
              </li>
            ))}
          </ul>
          <button
            disabled={picked.size === 0}
            onClick={() => void addDocuments([...picked]).then(() => setPicked(new Set()))}
            data-testid="project-add-selected"
          >
            Add selected
          </button>{' '}
          <button
            onClick={() => void addDocuments(others.map((d) => d.id))}
            data-testid="project-add-all"
          >
            Add all
          </button>
        </details>
      )}
    </section>
  );
}
