// A document's bibliographic data in the viewer: the author-year citation it gets, and a form
// to correct title, authors (one per line, "Family, Given"), year, DOI and arXiv id.
import { useEffect, useState } from 'react';
import { projectsClient } from '../clients';
import { saveBiblio } from '../state/biblio-actions';
import {
  citeAuthorYear,
  normaliseArxiv,
  normaliseDoi,
  parseAuthorName,
  type BiblioAuthor,
  type DocumentBiblio,
} from '../../workers/shared/biblio';

const authorsText = (a: readonly BiblioAuthor[]) =>
  a.map((x) => (x.given ? `${x.family}, ${x.given}` : x.family)).join('\n');

export function BiblioEditor({ documentId }: { documentId: number }) {
  const [record, setRecord] = useState<DocumentBiblio | null>(null);
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    let alive = true;
    projectsClient()
      .getBiblio(documentId)
      .then((r) => alive && setRecord(r))
      .catch(() => alive && setRecord(null));
    return () => {
      alive = false;
    };
  }, [documentId]);
  const cite = citeAuthorYear(record);
  return (
    <div className="biblio" data-testid="biblio">
      <span data-testid="biblio-cite">{cite ?? 'No bibliographic data'}</span>
      {record?.doi && <span data-testid="biblio-doi"> · doi:{record.doi}</span>}
      {record?.arxiv && <span data-testid="biblio-arxiv"> · arXiv:{record.arxiv}</span>}
      {record && <span className="hint"> ({record.source})</span>}{' '}
      <button onClick={() => setEditing(!editing)} data-testid="biblio-edit">
        {editing ? 'Close' : 'Edit'}
      </button>
      {editing && (
        <BiblioForm
          record={record}
          onSave={async (b) => {
            const saved = await saveBiblio(documentId, b);
            if (saved) {
              setRecord(saved);
              setEditing(false);
            }
          }}
        />
      )}
    </div>
  );
}

function BiblioForm(props: {
  record: DocumentBiblio | null;
  onSave: (b: Parameters<typeof saveBiblio>[1]) => Promise<void>;
}) {
  const r = props.record;
  const [title, setTitle] = useState(r?.title ?? '');
  const [authors, setAuthors] = useState(authorsText(r?.authors ?? []));
  const [year, setYear] = useState(r?.year ? String(r.year) : '');
  const [doi, setDoi] = useState(r?.doi ?? '');
  const [arxiv, setArxiv] = useState(r?.arxiv ?? '');
  const submit = () => {
    const y = Number(year);
    const d = normaliseDoi(doi);
    const a = normaliseArxiv(arxiv);
    void props.onSave({
      authors: authors
        .split('\n')
        .map(parseAuthorName)
        .filter((x): x is BiblioAuthor => x !== null),
      ...(title.trim() ? { title: title.trim() } : {}),
      ...(Number.isInteger(y) && y > 0 ? { year: y } : {}),
      ...(d ? { doi: d } : {}),
      ...(a ? { arxiv: a } : {}),
      ...(r?.container ? { container: r.container } : {}),
      ...(r?.type ? { type: r.type } : {}),
      ...(r?.url ? { url: r.url } : {}),
    });
  };
  return (
    <form
      className="biblio-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <label>
        Title{' '}
        <input
          value={title}
          onChange={(e) => setTitle(e.currentTarget.value)}
          data-testid="biblio-title"
        />
      </label>
      <label>
        Authors (one per line, “Family, Given”)
        <textarea
          value={authors}
          rows={3}
          onChange={(e) => setAuthors(e.currentTarget.value)}
          data-testid="biblio-authors"
        />
      </label>
      <label>
        Year{' '}
        <input
          value={year}
          inputMode="numeric"
          onChange={(e) => setYear(e.currentTarget.value)}
          data-testid="biblio-year"
        />
      </label>
      <label>
        DOI{' '}
        <input
          value={doi}
          onChange={(e) => setDoi(e.currentTarget.value)}
          data-testid="biblio-doi-input"
        />
      </label>
      <label>
        arXiv id{' '}
        <input
          value={arxiv}
          onChange={(e) => setArxiv(e.currentTarget.value)}
          data-testid="biblio-arxiv-input"
        />
      </label>
      <button type="submit" data-testid="biblio-save">
        Save
      </button>
    </form>
  );
}
