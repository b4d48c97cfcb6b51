// SciFact claims for the stance model and `--task claims`: the claims CSVs (one row per claim and
// evidence abstract), the original sentence boundaries of every cited abstract
// (eval/data/scifact-sentences.json, from eval/scifact-sentences.py) and the
// (claim, abstract, evidence sentences, label) instances the issue defines: gold rationale
// sentences for SUPPORT/CONTRADICT, the three BM25-closest sentences of each cited abstract for
// claims without evidence. Node only.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { topSentences } from '../workers/projects/sentence-rank';
import type { Stance } from '../workers/projects/stance-model';
import type { BeirDoc } from './beir';

export interface ClaimRecord {
  id: string;
  claim: string;
  /** Evidence abstract id -> its label and the union of its rationale sentence indexes. */
  evidence: Map<string, { label: 'SUPPORT' | 'CONTRADICT'; sentences: number[] }>;
  cited: string[];
}

export interface StanceInstance {
  claimId: string;
  claim: string;
  docId: string;
  label: Stance;
  /** Indexes into the abstract's original sentences. */
  sentenceIdx: number[];
}

export const NEI_SENTENCES = 3;

/** Parses RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** `split`: train (claims_train.csv) or validation (claims_validation.csv = BEIR test). */
export function loadClaims(folder: string, split: 'train' | 'validation'): ClaimRecord[] {
  const [header, ...rows] = parseCsv(
    readFileSync(join(folder, 'claims', `claims_${split}.csv`), 'utf8'),
  );
  const col = (name: string) => {
    const i = header!.indexOf(name);
    if (i < 0) throw new Error(`claims_${split}.csv has no column ${name}`);
    return i;
  };
  const [cId, cClaim, cDoc, cLabel, cSent, cCited] = [
    'id',
    'claim',
    'evidence_doc_id',
    'evidence_label',
    'evidence_sentences',
    'cited_doc_ids',
  ].map(col) as [number, number, number, number, number, number];
  const byId = new Map<string, ClaimRecord>();
  for (const r of rows) {
    if (r.length < header!.length) continue;
    const id = r[cId]!;
    let rec = byId.get(id);
    if (!rec) {
      rec = { id, claim: r[cClaim]!, evidence: new Map(), cited: r[cCited]!.match(/\d+/g) ?? [] };
      byId.set(id, rec);
    }
    const label = r[cLabel];
    if (label === 'SUPPORT' || label === 'CONTRADICT') {
      const doc = r[cDoc]!;
      const e = rec.evidence.get(doc) ?? { label, sentences: [] };
      for (const s of r[cSent]!.match(/\d+/g) ?? []) {
        if (!e.sentences.includes(Number(s))) e.sentences.push(Number(s));
      }
      e.sentences.sort((a, b) => a - b);
      rec.evidence.set(doc, e);
    }
  }
  return [...byId.values()];
}

export type SentenceStarts = Record<string, number[]>;

export function loadSentenceStarts(): SentenceStarts {
  return JSON.parse(
    readFileSync(new URL('./data/scifact-sentences.json', import.meta.url), 'utf8'),
  ) as SentenceStarts;
}

/** The original sentences of an abstract, with their offsets in the BEIR text. */
export function originalSentences(
  text: string,
  starts: number[],
): Array<{ text: string; start: number; end: number }> {
  return starts.map((s, i) => {
    const end = i + 1 < starts.length ? starts[i + 1]! - 1 : text.length;
    return { text: text.slice(s, end), start: s, end };
  });
}

/**
 * The oracle instances: each (claim, evidence abstract) with its rationale sentences and label;
 * each cited abstract of a claim without evidence with its NEI_SENTENCES BM25-closest sentences,
 * labelled NEUTRAL (SciFact's NOT ENOUGH INFO).
 */
export function oracleInstances(
  claims: ClaimRecord[],
  corpus: Map<string, BeirDoc>,
  starts: SentenceStarts,
): StanceInstance[] {
  const out: StanceInstance[] = [];
  for (const c of claims) {
    if (c.evidence.size > 0) {
      for (const [docId, e] of c.evidence) {
        out.push({
          claimId: c.id,
          claim: c.claim,
          docId,
          label: e.label,
          sentenceIdx: e.sentences,
        });
      }
      continue;
    }
    for (const docId of c.cited) {
      const doc = corpus.get(docId);
      const st = starts[docId];
      if (!doc || !st) continue;
      const sents = originalSentences(doc.text, st).map((s) => s.text);
      const idx = topSentences(c.claim, sents, NEI_SENTENCES).sort((a, b) => a - b);
      out.push({ claimId: c.id, claim: c.claim, docId, label: 'NEUTRAL', sentenceIdx: idx });
    }
  }
  return out;
}
