// Provenance of a library document as the results list shows it (issue 17): where it came from
// ("own document" for an imported local file, the web site for an imported page), its quality
// grade (the one the user or the web import set, else OWN_DOCUMENT_GRADE) and its import date;
// and the results' order by grade or date. Pure.
import {
  documentGrade,
  type DocumentResult,
  type DocumentSummary,
  type QualityGrade,
} from '../../workers/shared/types';

export interface SourceInfo {
  /** "own document" or the web site's host. */
  origin: string;
  grade: QualityGrade;
  /** The user or an import set the grade (not the own-document default). */
  graded: boolean;
  importedAt: number;
}

export function sourceInfo(d: DocumentSummary): SourceInfo {
  let origin = 'own document';
  if (d.sourceUrl) {
    try {
      origin = new URL(d.sourceUrl).hostname.replace(/^www\./, '');
    } catch {
      origin = 'web';
    }
  }
  return {
    origin,
    grade: documentGrade(d),
    graded: d.qualityGrade !== null,
    importedAt: d.importedAt,
  };
}

export type ResultOrder = 'relevance' | 'grade' | 'newest' | 'oldest';

/**
 * The results in the chosen order: by grade (A first) or import date; ties (and documents the
 * list does not know) keep the ranking's order.
 */
export function orderResults(
  docs: DocumentResult[],
  order: ResultOrder,
  byId: ReadonlyMap<number, DocumentSummary>,
): DocumentResult[] {
  if (order === 'relevance') return docs;
  const key = (r: DocumentResult): number => {
    const d = byId.get(r.documentId);
    if (!d) return Infinity;
    if (order === 'grade') return 'ABCDE'.indexOf(documentGrade(d));
    return order === 'newest' ? -d.importedAt : d.importedAt;
  };
  return docs
    .map((r, i) => ({ r, i, k: key(r) }))
    .sort((a, b) => a.k - b.k || a.i - b.i)
    .map((x) => x.r);
}
