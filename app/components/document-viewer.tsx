// Shows one document as plain text with the hit's chunk (or a cited strip's exact character
// range) highlighted and scrolled into view, its bibliographic data (editable), and
// "More like this" for the whole document or the text the user selected in it.
import { BiblioEditor } from './biblio-editor';
import { pageAt } from '../../workers/shared/pages';
import { PageView } from './page-view';
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { formatBytes, formatDate, mimeLabel } from '../lib/format';
import { sourceInfo } from '../lib/provenance';
import { runRelated, setDocumentGrade } from '../state/actions';
import type { QualityGrade } from '../../workers/shared/types';
import { useAppStore, type OpenDocument } from '../state/app-store';

/** The document's origin and grade; the user sets the grade (default: own document, C). */
function GradePicker({ detail }: { detail: Parameters<typeof sourceInfo>[0] }) {
  const info = sourceInfo(detail);
  return (
    <label className="path" data-testid="viewer-provenance">
      {info.origin} · grade{' '}
      <select
        value={detail.qualityGrade ?? ''}
        onChange={(e) =>
          void setDocumentGrade(detail.id, (e.currentTarget.value || null) as QualityGrade | null)
        }
        aria-label="Quality grade of this document"
        data-testid="viewer-grade"
      >
        <option value="">
          {detail.sourceUrl ? 'as imported' : 'own document'} ({info.graded ? '—' : info.grade})
        </option>
        {(['A', 'B', 'C', 'D', 'E'] as const).map((g) => (
          <option key={g} value={g}>
            {g}
          </option>
        ))}
      </select>
    </label>
  );
}

export function DocumentViewer() {
  const open = useAppStore((s) => s.open);
  const setOpen = useAppStore((s) => s.setOpen);
  const mark = useRef<HTMLElement>(null);
  const { selection, readSelection } = useViewerSelection(open);
  useEffect(() => {
    mark.current?.scrollIntoView({ block: 'center' });
  }, [open]);
  const pageUnavailable = useCallback(
    (note: string) => {
      const now = useAppStore.getState().open;
      if (now) setOpen({ ...now, page: null, pageNote: note });
    },
    [setOpen],
  );
  if (!open) return null;
  const { detail, chunkSeq } = open;
  const chunk = chunkSeq === null ? undefined : detail.chunks.find((c) => c.seq === chunkSeq);
  const range = citedRange(open);
  const quote = range ? detail.text.slice(range.start, range.end) : (chunk?.text ?? '');
  return (
    <aside className="viewer" aria-label={`Document: ${detail.title}`} data-testid="viewer">
      <div className="viewer-head">
        <div>
          <h2 data-testid="viewer-title">{detail.title}</h2>
          <div className="path">
            {detail.path} · {mimeLabel(detail.mime)} · {formatBytes(detail.size)} · modified{' '}
            {formatDate(detail.modified)}
            {chunk ? ` · chunk ${chunk.seq + 1} of ${detail.chunks.length}` : ''}
          </div>
          <GradePicker detail={detail} />
          <BiblioEditor key={detail.id} documentId={detail.id} />
        </div>
        <div className="viewer-actions">
          <RelatedButton documentId={detail.id} selection={selection} />
          {detail.mime === PDF && !open.page && (
            <button
              onClick={() => {
                const at = pageAt(detail.pageStarts, range?.start ?? chunk?.start ?? 0);
                setOpen({ ...open, page: { quote, ...(at ? { page: at } : {}) }, pageNote: null });
              }}
              title="Show the PDF's page with this passage highlighted"
              data-testid="viewer-show-page"
            >
              Show page
            </button>
          )}
        </div>
        <button
          onClick={() => setOpen(null)}
          aria-label="Close document (Esc)"
          data-testid="viewer-close"
        >
          ×
        </button>
      </div>
      {open.page ? (
        <PageView
          key={`${detail.id}:${open.page.page ?? ''}:${open.page.quote}`}
          documentId={detail.id}
          page={open.page.page}
          quote={open.page.quote}
          onClose={() => setOpen({ ...open, page: null })}
          onUnavailable={pageUnavailable}
        />
      ) : (
        <>
          {open.pageNote && (
            <p className="notice" role="status" data-testid="viewer-page-note">
              {open.pageNote}
            </p>
          )}
          <div
            className="viewer-body"
            data-testid="viewer-body"
            tabIndex={0}
            onMouseUp={readSelection}
            onKeyUp={readSelection}
          >
            <MarkedText text={detail.text} range={range} chunk={chunk} mark={mark} />
          </div>
        </>
      )}
    </aside>
  );
}

const PDF = 'application/pdf';

/** The text the user selected in the open document (another document opens without one). */
function useViewerSelection(open: OpenDocument | null) {
  // The selection belongs to the document it was made in.
  const [picked, setPicked] = useState<{ documentId: number; text: string } | null>(null);
  const selection = picked && picked.documentId === open?.detail.id ? picked.text : '';
  const readSelection = () =>
    open &&
    setPicked({
      documentId: open.detail.id,
      text: window.getSelection()?.toString().trim() ?? '',
    });
  return { selection, readSelection };
}

/** A cited strip's exact offsets, clamped so a changed document never throws; null without one. */
function citedRange(open: OpenDocument): { start: number; end: number } | null {
  const length = open.detail.text.length;
  return open.range
    ? {
        start: Math.max(0, Math.min(open.range.start, length)),
        end: Math.max(0, Math.min(open.range.end, length)),
      }
    : null;
}

/** "More like this" for the selected text, or for the whole document without a selection. */
function RelatedButton({ documentId, selection }: { documentId: number; selection: string }) {
  return (
    <button
      onClick={() =>
        void runRelated(
          selection
            ? { kind: 'text', text: selection, documentId }
            : { kind: 'document', documentId },
        )
      }
      title="Find passages in other documents like the selected text (or this document)"
      data-testid="related-selection"
    >
      {selection ? 'Find related to the selection' : 'More like this document'}
    </button>
  );
}

/** The document's text with the cited range (which wins) or the hit's chunk marked. */
function MarkedText({
  text,
  range,
  chunk,
  mark,
}: {
  text: string;
  range: { start: number; end: number } | null;
  chunk: { start: number; end: number } | undefined;
  mark: RefObject<HTMLElement | null>;
}) {
  const marked = range
    ? { ...range, className: 'chunk cited', testId: 'viewer-cited' }
    : chunk
      ? { start: chunk.start, end: chunk.end, className: 'chunk', testId: 'viewer-chunk' }
      : null;
  if (!marked) return text;
  return (
    <>
      {text.slice(0, marked.start)}
      <mark ref={mark} className={marked.className} data-testid={marked.testId}>
        {text.slice(marked.start, marked.end)}
      </mark>
      {text.slice(marked.end)}
    </>
  );
}
