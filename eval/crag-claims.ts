// SciFact claim files (claims/claims_<train|validation>.csv, see the dataset's SOURCE.md):
// evidence rows (claim, document, SUPPORT/CONTRADICT, rationale sentence indices) and the
// alignment of those indices with Intl.Segmenter's sentences of the stored document text.
// A document counts as aligned when Intl.Segmenter and a plain ". X" splitter agree on its
// sentence count (then index i is sentence i); otherwise its rationales are left out and the
// share is reported as rationale_aligned. Node only.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sentences, type Span } from '../workers/answer/text';
import { parseCsv } from './claims-data';

export interface Evidence {
  claimId: string;
  claim: string;
  docId: string;
  label: 'SUPPORT' | 'CONTRADICT';
  sentences: number[];
}

/** Evidence rows of a split (test = SciFact dev claims), [] when the dataset has no claims. */
export function loadEvidence(folder: string, split: string): Evidence[] {
  const file = join(folder, 'claims', `claims_${split === 'test' ? 'validation' : split}.csv`);
  if (!existsSync(file)) return [];
  const rows = parseCsv(readFileSync(file, 'utf8')).slice(1);
  const out: Evidence[] = [];
  for (const [id, claim, docId, label, sents] of rows) {
    if (!id || !docId || (label !== 'SUPPORT' && label !== 'CONTRADICT')) continue;
    const idx = (sents ?? '').match(/\d+/g)?.map(Number) ?? [];
    out.push({ claimId: id, claim: claim ?? '', docId, label, sentences: idx });
  }
  return out;
}

const PLAIN_SPLIT = /[.!?]["')\]]?\s+(?=["'([]?[A-Z0-9])/g;

/** Gold rationale spans in `text` (aligned ones) and how many indices there were. */
export function rationaleSpans(text: string, indices: number[]): { spans: Span[]; total: number } {
  const segs = sentences(text);
  const plain = (text.trim().match(PLAIN_SPLIT)?.length ?? 0) + 1;
  if (segs.length !== plain) return { spans: [], total: indices.length };
  const spans = indices.filter((i) => i < segs.length).map((i) => segs[i]!);
  return { spans, total: indices.length };
}

/** Whether a strip [start, end) lies mostly inside a gold span (>= half its length). */
export function insideSpan(start: number, end: number, spans: Span[]): boolean {
  return spans.some((s) => Math.min(end, s.end) - Math.max(start, s.start) >= (end - start) / 2);
}
