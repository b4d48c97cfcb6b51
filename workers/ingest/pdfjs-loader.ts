// How pdfjs-dist is loaded in each environment. Owns the choice of build and how pdfjs's own
// "worker" code runs. Only this file names pdfjs-dist paths.
//
// In the browser we run inside Sift's module worker already, so pdfjs should not spawn a
// nested worker from a URL: importing `pdf.worker.mjs` and publishing it as
// `globalThis.pdfjsWorker` makes pdfjs run its parser on this same thread (its documented
// "main-thread worker" path), with no workerSrc URL, no blob: worker and no network fetch.
import type { PdfjsLike } from './parse-pdf';

/** Browser (module worker or page): the modern build plus its worker code on the same thread. */
export async function loadBrowserPdfjs(): Promise<PdfjsLike> {
  const [pdfjs, worker] = await Promise.all([
    import('pdfjs-dist'),
    import('pdfjs-dist/build/pdf.worker.mjs'),
  ]);
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it (pdfjs's text items include TextMarkedContent)
  return pdfjs as unknown as PdfjsLike;
}

/** Node (tests, eval CLI): the legacy build, which polyfills what Node lacks (DOMMatrix...). */
export async function loadNodePdfjs(): Promise<PdfjsLike> {
  const [pdfjs, worker] = await Promise.all([
    import('pdfjs-dist/legacy/build/pdf.mjs'),
    import('pdfjs-dist/legacy/build/pdf.worker.mjs'),
  ]);
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- tsc needs it (pdfjs's text items include TextMarkedContent)
  return pdfjs as unknown as PdfjsLike;
}
