// From the fused chunk list to passages: one per document (its best chunk leads), top 10
// documents, each with a window of its text (the hit chunks plus neighbours, up to a budget) that
// features, refinement and strips work on. Offsets stay exact against the stored document text.
import { groupInOrder } from '../shared/document-results';
import type { AnswerDocument, RetrievedChunk } from './types';

export interface Passage {
  documentId: number;
  path: string;
  title: string;
  /** 1-based rank among distinct documents. */
  rank: number;
  /** This document's chunks in the fused list, best first. */
  hits: RetrievedChunk[];
  /** Window ranges into the document text (sorted, disjoint), and the chunk ids they cover. */
  ranges: Array<{ start: number; end: number }>;
  chunkIds: number[];
  /** The stored document text (for strips with exact offsets); '' when it vanished. */
  text: string;
}

export const PASSAGES = 10;
export const WINDOW_CHARS = 3000;

/** Distinct documents in fused order, at most `max`. */
export function groupByDocument(chunks: RetrievedChunk[], max = PASSAGES): RetrievedChunk[][] {
  return groupInOrder(chunks, (c) => c.documentId, max);
}

/** The window: hit chunks, then their neighbours (nearest first) while under `budget` chars. */
export function windowOf(
  doc: AnswerDocument,
  hits: RetrievedChunk[],
  budget = WINDOW_CHARS,
): { ranges: Array<{ start: number; end: number }>; chunkIds: number[] } {
  const bySeq = [...doc.chunks].sort((a, b) => a.seq - b.seq);
  const hitSeqs = new Set(hits.map((h) => h.seq));
  const chosen = new Set<number>();
  let used = 0;
  const take = (i: number) => {
    const c = bySeq[i];
    if (!c || chosen.has(i)) return;
    chosen.add(i);
    used += c.end - c.start;
  };
  bySeq.forEach((c, i) => hitSeqs.has(c.seq) && take(i));
  for (let d = 1; d < bySeq.length && used < budget; d++) {
    for (const i of [...chosen]) {
      if (used >= budget) break;
      for (const j of [i - d, i + d]) if (used < budget && j >= 0 && j < bySeq.length) take(j);
    }
  }
  const picked = [...chosen].sort((a, b) => a - b).map((i) => bySeq[i]!);
  const ranges: Array<{ start: number; end: number }> = [];
  for (const c of picked) {
    const last = ranges[ranges.length - 1];
    if (last && c.start <= last.end) last.end = Math.max(last.end, c.end);
    else ranges.push({ start: c.start, end: c.end });
  }
  return { ranges, chunkIds: picked.map((c) => c.id) };
}

/** Passages for the top documents (documents deleted meanwhile are skipped). */
export async function buildPassages(
  chunks: RetrievedChunk[],
  loadDocument: (documentId: number) => Promise<AnswerDocument | null>,
  max = PASSAGES,
): Promise<Passage[]> {
  const groups = groupByDocument(chunks, max);
  const docs = await Promise.all(groups.map((g) => loadDocument(g[0]!.documentId)));
  const out: Passage[] = [];
  groups.forEach((hits, i) => {
    const doc = docs[i];
    const head = hits[0]!;
    const w = doc
      ? windowOf(doc, hits)
      : { ranges: [{ start: head.start, end: head.end }], chunkIds: [head.chunkId] };
    out.push({
      documentId: head.documentId,
      path: head.path,
      title: head.title,
      rank: out.length + 1,
      hits,
      ranges: w.ranges,
      chunkIds: w.chunkIds,
      text: doc?.text ?? '',
    });
  });
  return out;
}

/** The window's text (ranges joined by a space). */
export function windowText(p: Passage): string {
  if (!p.text) return p.hits.map((h) => h.text).join(' ');
  return p.ranges.map((r) => p.text.slice(r.start, r.end)).join(' ');
}
