// Sentence-checker pairs from the claim files (the claim is the answer sentence): right (its
// SUPPORT rationale sentences), contradict (its CONTRADICT rationale), hard negative (the best
// strips of the top-ranked retrieved document that is not relevant) and random (the best
// sentences of a seeded random other document). Every cited strip comes with its document context
// (strip-context.ts: title and the text around it, from the same function the answer service
// uses), so context adds no difference of construction between the kinds. Embeddings through the eval encoder, cached
// in .cache/embed/<model>@<version>+checker.bin (not the corpus cache, nor the evaluator fit's).
import { createSentenceChecker, type CheckInput } from '../workers/answer/checker';
import type { FittedModel } from '../workers/answer/fitted';
import { stripContext } from '../workers/answer/strip-context';
import type { Span } from '../workers/answer/text';
import { mulberry32 } from '../workers/embed/rng.testkit';
import { openEmbedCache } from '../lab/embed-cache';
import { loadNodeEncoder } from '../lab/embed-models';
import { rationaleSpans, type Evidence } from './crag-claims';
import { bestSentenceSpans, refineRecord, type QueryRecord } from './crag-collect';
import type { CragHarness } from './crag-harness';

export type PairKind = 'right' | 'contradict' | 'hard' | 'random';

export interface Pair extends CheckInput {
  kind: PairKind;
}

export function buildPairs(
  harness: CragHarness,
  fitted: FittedModel,
  records: QueryRecord[],
  evidence: Evidence[],
  corpusSize: number,
): Pair[] {
  const pairs: Pair[] = [];
  const byId = new Map(records.map((r) => [r.qid, r]));
  const done = new Set<string>();
  // the cited spans of one document, each with its context
  const cite = (documentId: number, spans: Span[]) => {
    const d = harness.doc(documentId);
    return {
      evidence: spans.map((s) => s.text),
      context: spans.map((s) => stripContext(d.title, d.text, s)),
    };
  };
  for (const e of evidence) {
    const doc = harness.idOf(e.docId);
    if (doc === undefined) continue;
    const spans = rationaleSpans(harness.doc(doc).text, e.sentences).spans;
    if (spans.length)
      pairs.push({
        kind: e.label === 'SUPPORT' ? 'right' : 'contradict',
        sentence: e.claim,
        ...cite(doc, spans),
      });
    if (done.has(e.claimId)) continue;
    done.add(e.claimId);
    const rec = byId.get(e.claimId);
    if (!rec) continue;
    const negIndex = rec.first.passages.findIndex((p) => !(rec.rels[p.path] ?? 0));
    if (negIndex >= 0) {
      const neg = rec.first.passages[negIndex]!;
      const strips = refineRecord(fitted, rec)
        .all.filter((s) => s.path === neg.path)
        .sort((a, b) => b.score - a.score || a.start - b.start)
        .slice(0, 2);
      if (strips.length)
        pairs.push({ kind: 'hard', sentence: e.claim, ...cite(neg.documentId, strips) });
    }
    const rand = mulberry32(Number(e.claimId) * 7919 + 17);
    let other = Math.floor(rand() * corpusSize);
    while (rec.rels[harness.pathOf(other)]) other = (other + 1) % corpusSize;
    const sents = bestSentenceSpans(rec.first.query, harness.doc(other).text, 2);
    if (sents.length) pairs.push({ kind: 'random', sentence: e.claim, ...cite(other, sents) });
  }
  return pairs;
}

/** The eval encoder's passage embeddings of texts, cached on disk (the checker's side cache). */
export async function evalEmbed(harness: CragHarness) {
  const encoder = await loadNodeEncoder(harness.modelId);
  const cache = openEmbedCache(encoder.id, `${encoder.version}+checker`, encoder.dim);
  return async (texts: string[]) =>
    texts.map((t) => {
      const input = encoder.passageText(t);
      let v = cache.get(input);
      if (!v) {
        v = encoder.embed(input);
        cache.put(input, v);
      }
      return v;
    });
}

/** A checker whose embeddings come from the eval's Node encoder (cached on disk). */
export async function evalChecker(
  harness: CragHarness,
  fitted: FittedModel,
  options: { contextCosine?: boolean } = {},
) {
  const embed = await evalEmbed(harness);
  return createSentenceChecker({ stats: harness.deps.lexicalStats, embed, ...options }, fitted);
}
