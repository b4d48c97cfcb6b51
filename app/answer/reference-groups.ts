// An answer's reference list with each document once: the answer cites strips ([1], [3] may be
// two passages of one document), and the list groups them under the document with all its
// numbers, in order of first citation. Pure; used by the Answer view and the Markdown export.
import type { AnswerReference } from '../../workers/shared/answer-api';

export interface ReferenceGroup {
  /** The first reference of the document (title, path, source, tier). */
  ref: AnswerReference;
  /** Every reference number that points into this document, ascending. */
  numbers: number[];
  /** Every reference of the document, in number order. */
  refs: AnswerReference[];
}

/** What makes two references the same document: its id, else its URL or path. */
function documentKey(r: AnswerReference): string {
  if (r.source === 'library' && r.documentId !== null) return `doc:${r.documentId}`;
  return `${r.source}:${r.url ?? r.path}`;
}

export function groupReferences(references: readonly AnswerReference[]): ReferenceGroup[] {
  const groups = new Map<string, ReferenceGroup>();
  for (const r of [...references].sort((a, b) => a.n - b.n)) {
    const key = documentKey(r);
    const g = groups.get(key);
    if (g) {
      g.numbers.push(r.n);
      g.refs.push(r);
    } else groups.set(key, { ref: r, numbers: [r.n], refs: [r] });
  }
  return [...groups.values()];
}
