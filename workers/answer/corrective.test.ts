// The corrective gate: the expanded retrieval replaces the first only when the fitted rule lets
// it (score rise strictly above minGain, second score at least minScore, never with 'none' or
// 'rerank'), the shipped fits load with a technique the service knows, and 'rerank' reorders
// real evaluated passages by their scores, carrying features and scores along.
import { describe, expect, it } from 'vitest';
import { correctiveSwitch, rerankByScore } from './corrective';
import { passageFeatures, queryContext } from './features';
import { loadFittedModel } from './fitted';
import type { Passage } from './passages';
import { createRetrievalEvaluator } from './evaluator';
import { contentStems } from './text';

describe('correctiveSwitch', () => {
  const rule = { technique: 'rm3' as const, trainGain: 0.01, minGain: 0.2, minScore: 0.3 };

  it('switches only when the score rises by more than minGain', () => {
    expect(correctiveSwitch(rule, 0.1, 0.35)).toBe(true);
    expect(correctiveSwitch(rule, 0.1, 0.3)).toBe(false); // rise 0.2 is not more than 0.2
    expect(correctiveSwitch(rule, 0.25, 0.4)).toBe(false);
  });

  it('switches only when the second score reaches minScore', () => {
    const low = { ...rule, minGain: 0 };
    expect(correctiveSwitch(low, 0.05, 0.29)).toBe(false);
    expect(correctiveSwitch(low, 0.05, 0.3)).toBe(true);
  });

  it('treats a missing gate as any rise, and never switches with technique none', () => {
    expect(correctiveSwitch({ technique: 'wordnet', trainGain: 0 }, 0.1, 0.11)).toBe(true);
    expect(correctiveSwitch({ technique: 'wordnet', trainGain: 0 }, 0.1, 0.1)).toBe(false);
    expect(correctiveSwitch({ technique: 'none', trainGain: 0 }, 0, 1)).toBe(false);
    expect(correctiveSwitch({ technique: 'rerank', trainGain: 0.05 }, 0, 1)).toBe(false);
  });

  it('reads the shipped fits: a technique with a gate, or none', async () => {
    for (const id of ['all-MiniLM-L6-v2', 'use-lite', 'unknown-model']) {
      const c = (await loadFittedModel(id)).corrective;
      expect(['rm3', 'wordnet', 'rerank', 'none']).toContain(c.technique);
      if (c.technique !== 'none') expect(c.trainGain).toBeGreaterThanOrEqual(0); // rounded to 4 places
      expect(correctiveSwitch(c, 0, 0)).toBe(false); // no rise never switches
    }
  });
});

describe('rerankByScore', () => {
  const TEXTS = [
    'Simmer the gooseberries with sugar until the jam sets in warm jars.',
    'The rover drilled into the red planet rock and sent mineral readings home.',
    'The coastal pelican colony nests on the cliffs above the harbour every spring.',
  ];
  const passage = (i: number): Passage => ({
    documentId: i,
    path: `doc${i}.txt`,
    title: `doc${i}`,
    rank: i + 1,
    hits: [
      {
        chunkId: i * 10,
        documentId: i,
        path: `doc${i}.txt`,
        title: `doc${i}`,
        seq: 0,
        start: 0,
        end: TEXTS[i]!.length,
        text: TEXTS[i]!,
        fusedRank: i + 1,
        fusedScore: 1 / (61 + i),
        lexicalScore: 3 - i,
        lexicalRank: i + 1,
        cosine: null,
        semanticRank: null,
      },
    ],
    ranges: [{ start: 0, end: TEXTS[i]!.length }],
    chunkIds: [i * 10],
    text: TEXTS[i]!,
  });

  it('puts the passage the evaluator scores best first, keeping each one with its scores', async () => {
    const question = 'Where does the coastal pelican colony nest?';
    const sets = TEXTS.map((t) => new Set(contentStems(t)));
    const q = await queryContext(
      question,
      {
        docFreq: async (words) => ({
          total: TEXTS.length,
          df: words.map((w) => sets.filter((s) => s.has(contentStems(w)[0] ?? w)).length),
        }),
      },
      null,
    );
    const passages = [0, 1, 2].map(passage);
    const features = passageFeatures(q, passages, new Map(), question);
    const fitted = await loadFittedModel('all-MiniLM-L6-v2');
    const result = createRetrievalEvaluator(fitted).evaluate(passages, features);
    // the pelican passage is ranked last by retrieval but addresses the question
    expect(result.passages[2]!.finalScore).toBeGreaterThan(result.passages[0]!.finalScore);
    const ev = rerankByScore({ passages, features, query: q, result });
    expect(ev.passages[0]!.path).toBe('doc2.txt');
    const scores = ev.result.passages.map((p) => p.finalScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    ev.passages.forEach((p, i) => {
      expect(ev.result.passages[i]!.path).toBe(p.path);
      expect(ev.features[i]).toBe(features[passages.indexOf(p)]);
    });
    expect(ev.passages.map((p) => p.rank).sort()).toEqual([1, 2, 3]); // retrieval ranks kept
    expect(ev.result.decision).toBe(result.decision);
  });

  it('keeps the retrieval order between equal scores', async () => {
    const passages = [0, 1, 2].map(passage);
    const score = (path: string, finalScore: number) => ({
      documentId: 0,
      chunkId: 0,
      path,
      title: path,
      rank: 1,
      score: finalScore,
      finalScore,
      components: {},
    });
    const ev = rerankByScore({
      passages,
      features: [{}, {}, {}],
      query: { terms: { stems: [], weights: [], total: 0 }, ordered: [], vector: null },
      result: {
        decision: 'INCORRECT',
        queryScore: 0,
        passages: [score('doc0.txt', 0.1), score('doc1.txt', 0.3), score('doc2.txt', 0.1)],
        thresholds: { upper: 0.5, lower: 0.2, passage: 0.5 },
        fittedModel: 'test',
      },
    });
    expect(ev.passages.map((p) => p.path)).toEqual(['doc1.txt', 'doc0.txt', 'doc2.txt']);
  });
});
