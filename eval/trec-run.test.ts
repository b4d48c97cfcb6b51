// A run file scored the way trec_eval scores it (its own parse, sort by score then document id
// descending, linear-gain nDCG@10) gives the eval's own figure, ties of fused scores included.
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../workers/shared/rng.testkit';
import { evaluate, type Qrels, type Run } from './metrics';
import { formatTrecRun } from './trec-run';

/** trec_eval's ndcg_cut.10 over a run file's text, averaged over every query of the qrels. */
function trecEvalNdcg10(text: string, qrels: Qrels): number {
  const byQuery = new Map<string, Array<{ doc: string; score: number }>>();
  for (const line of text.trim().split('\n')) {
    const [qid, , doc, , score] = line.split(/\s+/);
    const list = byQuery.get(qid!) ?? [];
    list.push({ doc: doc!, score: Number(score) });
    byQuery.set(qid!, list);
  }
  let sum = 0;
  for (const [qid, rels] of Object.entries(qrels)) {
    const ranked = (byQuery.get(qid) ?? []).sort((a, b) =>
      b.score !== a.score ? b.score - a.score : b.doc.localeCompare(a.doc),
    );
    const dcg = ranked
      .slice(0, 10)
      .reduce((s, d, i) => s + (rels[d.doc] ?? 0) / Math.log2(i + 2), 0);
    const ideal = Object.values(rels)
      .filter((r) => r > 0)
      .sort((a, b) => b - a)
      .slice(0, 10)
      .reduce((s, r, i) => s + r / Math.log2(i + 2), 0);
    sum += ideal > 0 ? dcg / ideal : 0;
  }
  return sum / Object.keys(qrels).length;
}

/** The run file as it was written before: the retriever's scores at 6 decimals. */
function sixDecimals(run: Run, ids: string[]): string {
  return ids
    .flatMap((qid) =>
      (run[qid] ?? []).map((d, i) => `${qid} Q0 ${d.docId} ${i + 1} ${d.score.toFixed(6)} t`),
    )
    .join('\n');
}

/** RRF (k = 60) of two seeded random rankings over 300 documents: many exactly tied scores. */
function fusedRun(queries: number, seed: number): { run: Run; qrels: Qrels; ids: string[] } {
  const rand = mulberry32(seed);
  const docs = Array.from({ length: 300 }, (_, i) => `d${1000 + i}`);
  const shuffled = () => [...docs].sort(() => rand() - 0.5).slice(0, 60);
  const run: Run = {};
  const qrels: Qrels = {};
  const ids: string[] = [];
  for (let q = 0; q < queries; q++) {
    const qid = `q${q}`;
    ids.push(qid);
    const scores = new Map<string, number>();
    for (const list of [shuffled(), shuffled()])
      list.forEach((d, r) => scores.set(d, (scores.get(d) ?? 0) + 1 / (60 + r + 1)));
    run[qid] = [...scores].map(([docId, score]) => ({ docId, score }));
    run[qid].sort((a, b) => b.score - a.score);
    qrels[qid] = Object.fromEntries(
      run[qid]
        .slice(0, 30)
        .filter(() => rand() < 0.2)
        .map((d) => [d.docId, 1 + Math.floor(rand() * 2)]),
    );
  }
  return { run, qrels, ids };
}

describe('TREC run files', () => {
  it('write strictly decreasing scores, one rank per line', () => {
    const text = formatTrecRun(
      {
        q1: [
          { docId: 'a', score: 1 },
          { docId: 'b', score: 1 },
          { docId: 'q1', score: 5 },
        ],
      },
      ['q1'],
      'sift-test',
    );
    expect(text).toBe('q1 Q0 b 1 2 sift-test\nq1 Q0 a 2 1 sift-test\n');
  });

  it('score with a standard scorer to the eval own nDCG@10, where 6-decimal scores did not', () => {
    // a and b tie at 6 decimals (0.032787): trec_eval put b (the larger id) first.
    const run: Run = {
      q1: [
        { docId: 'a', score: 0.0327869 },
        { docId: 'b', score: 0.03278688 },
      ],
    };
    const qrels: Qrels = { q1: { a: 1 } };
    const own = evaluate(qrels, run)['nDCG@10'];
    expect(own).toBe(1);
    expect(trecEvalNdcg10(sixDecimals(run, ['q1']), qrels)).toBeLessThan(own);
    expect(trecEvalNdcg10(formatTrecRun(run, ['q1'], 't'), qrels)).toBe(own);
  });

  it('keep the eval order over fused lists with exact ties', () => {
    const { run, qrels, ids } = fusedRun(200, 7);
    const own = evaluate(qrels, run)['nDCG@10'];
    expect(trecEvalNdcg10(formatTrecRun(run, ids, 't'), qrels)).toBeCloseTo(own, 12);
    // exact ties (the same two RRF ranks, swapped) left in the fused list's order would differ
    const listOrder = ids
      .flatMap((qid) => run[qid]!.map((d, i) => `${qid} Q0 ${d.docId} ${i + 1} ${1000 - i} t`))
      .join('\n');
    expect(Math.abs(trecEvalNdcg10(listOrder, qrels) - own)).toBeGreaterThan(1e-4);
  });
});
