// The page view of a PDF: one page drawn by pdf.js onto a canvas from the original kept at import,
// the cited quote highlighted over it (app/lib/pdf-quote.ts), previous / next page, and the way
// back to the text view. Esc goes back, ←/→ (and PageUp/PageDown) turn pages.
import { PDFJS_SAFE_OPTIONS } from '../../workers/shared/pdfjs-options';
import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { libraryClient, pdfjsForPages } from '../clients';
import {
  findQuotePage,
  matchQuote,
  pageText,
  type PdfTextItem,
  type QuoteMatch,
} from '../lib/pdf-quote';

export interface PageViewProps {
  documentId: number;
  /** 1-based; absent: the page holding the quote is looked up (then page 1). */
  page?: number | undefined;
  quote: string;
  onClose(): void;
  /** No page to show (no original kept, or the document was deleted): the note to show instead. */
  onUnavailable(note: string): void;
}

type Loaded =
  | { state: 'loading' }
  | { state: 'no-original' }
  | { state: 'deleted' }
  | { state: 'error'; message: string }
  /** `lost`: the page was looked up and no page holds the quote. */
  | { state: 'ready'; doc: PDFDocumentProxy; page: number; lost: boolean };

// The import parser's options (workers/shared/pdfjs-options.ts): no eval, no font faces, no
// system fonts, nothing fetched. Glyphs are drawn as paths from the file's own fonts.
const PDF_OPTIONS = PDFJS_SAFE_OPTIONS;

/** Opens the document's original with pdf.js and picks the page to show first. */
function useOriginal(documentId: number, page: number | undefined, quote: string): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ state: 'loading' });
  useEffect(() => {
    let live = true;
    let opened: PDFDocumentProxy | null = null;
    // A new document, page or quote mounts a new PageView (keyed by the viewer): no reset here.
    void (async () => {
      try {
        const bytes = await libraryClient().getOriginal(documentId);
        if (!live) return;
        if (!bytes) return setLoaded({ state: 'no-original' });
        const pdfjs = await pdfjsForPages();
        opened = await pdfjs.getDocument({ data: bytes, ...PDF_OPTIONS }).promise;
        if (!live) return;
        const found = page === undefined ? await locatePage(opened, quote) : null;
        const first = Math.min(Math.max(1, page ?? found ?? 1), opened.numPages);
        const lost = page === undefined && found === null;
        if (live) setLoaded({ state: 'ready', doc: opened, page: first, lost });
      } catch (err) {
        if (!live) return;
        if ((err as { code?: string }).code === 'NOT_FOUND') setLoaded({ state: 'deleted' });
        else setLoaded({ state: 'error', message: (err as Error).message ?? String(err) });
      }
    })();
    return () => {
      live = false;
      void opened?.destroy();
    };
  }, [documentId, page, quote]);
  return loaded;
}

/** The page holding the quote, searched through every page's text; null when none does. */
async function locatePage(doc: PDFDocumentProxy, quote: string): Promise<number | null> {
  const texts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    texts.push(pageText((await page.getTextContent()).items));
  }
  return findQuotePage(texts, quote)?.page ?? null;
}

interface Drawn {
  page: number;
  size: { width: number; height: number };
  boxes: Array<{ left: number; top: number; width: number; height: number }>;
  match: QuoteMatch | null;
}

/** Draws page `n` onto the canvas at the container's width and places the quote's boxes. */
function usePage(doc: PDFDocumentProxy, n: number, quote: string) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState<Drawn | null>(null);
  useEffect(() => {
    let live = true;
    let task: { cancel(): void } | null = null;
    void (async () => {
      const page = await doc.getPage(n);
      const el = canvas.current;
      if (!live || !el) return;
      const base = page.getViewport({ scale: 1 });
      const room = el.parentElement?.clientWidth || base.width;
      const viewport = page.getViewport({ scale: Math.min(2, Math.max(0.5, room / base.width)) });
      const ratio = window.devicePixelRatio || 1;
      el.width = Math.floor(viewport.width * ratio);
      el.height = Math.floor(viewport.height * ratio);
      el.style.width = `${Math.floor(viewport.width)}px`;
      el.style.height = `${Math.floor(viewport.height)}px`;
      const render = page.render({
        canvas: el,
        viewport,
        ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}),
      });
      task = render;
      const items = (await page.getTextContent()).items.filter(
        (it): it is PdfTextItem & typeof it => 'str' in it,
      );
      const match = matchQuote(items, quote);
      await render.promise;
      if (!live) return;
      const boxes = (match?.rects ?? []).map((r) => {
        const [x1, y1, x2, y2] = viewport.convertToViewportRectangle([
          r.x,
          r.y,
          r.x + r.width,
          r.y + r.height,
        ]) as [number, number, number, number];
        const left = Math.min(x1, x2);
        const top = Math.min(y1, y2);
        return { left, top, width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
      });
      setDrawn({ page: n, size: { width: viewport.width, height: viewport.height }, boxes, match });
    })().catch((err: unknown) => {
      // A cancelled render (the user turned the page) is not an error.
      if ((err as { name?: string }).name !== 'RenderingCancelledException') console.warn(err);
    });
    return () => {
      live = false;
      task?.cancel();
    };
  }, [doc, n, quote]);
  return { canvas, drawn: drawn?.page === n ? drawn : null };
}

/** Why there is no page to show, said as the text view's note. */
export function pageViewNote(state: 'no-original' | 'deleted'): string {
  return state === 'deleted'
    ? 'This document has been deleted from the library; there is no page to show.'
    : 'The original PDF is not kept for documents imported before page views (or past 100 MB); re-import it to see pages.';
}

export function PageView({ documentId, page, quote, onClose, onUnavailable }: PageViewProps) {
  const loaded = useOriginal(documentId, page, quote);
  const unavailable = loaded.state === 'no-original' || loaded.state === 'deleted';
  useEffect(() => {
    if (loaded.state === 'no-original' || loaded.state === 'deleted')
      onUnavailable(pageViewNote(loaded.state));
  }, [loaded.state, onUnavailable]);
  if (loaded.state === 'ready') {
    return <PdfPage key={documentId} loaded={loaded} quote={quote} onClose={onClose} />;
  }
  return (
    <div className="page-view" data-testid="page-view" data-state={loaded.state}>
      <PageViewBar onClose={onClose} />
      {loaded.state === 'loading' && <p className="path">Opening the original PDF…</p>}
      {unavailable && (
        <p className="notice" role="status" data-testid="page-view-note">
          {pageViewNote(loaded.state)}
        </p>
      )}
      {loaded.state === 'error' && (
        <p className="notice error" role="alert" data-testid="page-view-note">
          The page could not be drawn ({loaded.message}); the text view still shows the document.
        </p>
      )}
    </div>
  );
}

function PageViewBar({ onClose, children }: { onClose(): void; children?: ReactNode }) {
  return (
    <div className="page-view-bar">
      <button
        onClick={onClose}
        data-testid="page-view-close"
        aria-label="Back to the text view (Esc)"
      >
        ← Text view
      </button>
      {children}
    </div>
  );
}

function PdfPage({
  loaded,
  quote,
  onClose,
}: {
  loaded: Extract<Loaded, { state: 'ready' }>;
  quote: string;
  onClose(): void;
}) {
  const { doc } = loaded;
  const [n, setN] = useState(loaded.page);
  const { canvas, drawn } = usePage(doc, n, quote);
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => root.current?.focus(), []);
  const go = (to: number) => setN(Math.min(Math.max(1, to), doc.numPages));
  const onKeyDown = (e: KeyboardEvent) => {
    const step = { ArrowLeft: -1, PageUp: -1, ArrowRight: 1, PageDown: 1 }[e.key];
    if (step) {
      e.preventDefault();
      go(n + step);
    } else if (e.key === 'Escape') {
      e.stopPropagation(); // back to the text view only; the document stays open
      onClose();
    }
  };
  return (
    <div
      ref={root}
      className="page-view"
      data-testid="page-view"
      data-state="ready"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label={`Page ${n} of ${doc.numPages}; arrow keys turn pages, Esc returns to the text`}
    >
      <PageViewBar onClose={onClose}>
        <button
          onClick={() => go(n - 1)}
          disabled={n <= 1}
          aria-label="Previous page (←)"
          data-testid="page-prev"
        >
          ‹
        </button>
        <span data-testid="page-number" aria-live="polite">
          Page {n} of {doc.numPages}
        </span>
        <button
          onClick={() => go(n + 1)}
          disabled={n >= doc.numPages}
          aria-label="Next page (→)"
          data-testid="page-next"
        >
          ›
        </button>
      </PageViewBar>
      <QuoteStatus drawn={drawn} quote={quote} lost={loaded.lost && n === loaded.page} />
      <div className="page-view-sheet">
        <canvas
          ref={canvas}
          data-testid="page-canvas"
          data-drawn={drawn ? 'true' : 'false'}
          role="img"
          aria-label={`Page ${n} of the PDF`}
        />
        {drawn?.boxes.map((b, i) => (
          <span
            key={i}
            className="page-highlight"
            data-testid="page-highlight"
            style={{ left: b.left, top: b.top, width: b.width, height: b.height }}
          />
        ))}
      </div>
    </div>
  );
}

/** Whether the cited text is on this page, said in words (the boxes alone are not accessible). */
function QuoteStatus({
  drawn,
  quote,
  lost,
}: {
  drawn: Drawn | null;
  quote: string;
  lost: boolean;
}) {
  if (!drawn || !quote.trim()) return null;
  const text = drawn.match
    ? drawn.match.whole
      ? 'The cited text is highlighted on this page.'
      : 'Part of the cited text is highlighted on this page; the rest is on a neighbouring page.'
    : lost
      ? 'The cited text was not found on any page (the PDF’s text layer may differ); showing the first page.'
      : 'The cited text is not on this page.';
  return (
    <p
      className="path"
      role="status"
      data-testid="page-quote-status"
      data-found={drawn.match ? 'true' : 'false'}
    >
      {text}
    </p>
  );
}
